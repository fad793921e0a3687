// Every request body the app reads is read through here, counted as it streams, and refused as soon
// as it passes its bound: Content-Length alone bounds nothing, a chunked body has none, and reading
// first (`request.arrayBuffer()`, `text()`, `formData()`) holds all of it in memory before any check.

/** What a refused body's connection may still bring in, read and dropped, so its answer goes out on a connection still open. */
const LINGER_BYTES = 1024 * 1024;
/**
 * How long a refused body's connection stays open after the refusal, for the client to read its
 * answer: closing it with bytes unread makes the kernel reset it, and a reset can reach the client
 * before the answer does.
 */
const LINGER_MS = 2_000;

/**
 * The rest of a refused body: up to LINGER_BYTES are read and dropped (a body a little over its
 * bound ends there, and its connection serves the next request), then nothing more is read, and
 * after LINGER_MS the connection is closed. What is dropped is never kept.
 */
function letGo(reader: ReadableStreamDefaultReader<Uint8Array>) {
  const close = setTimeout(() => void reader.cancel().catch(() => {}), LINGER_MS);
  close.unref();
  void (async () => {
    let dropped = 0;
    while (dropped <= LINGER_BYTES) {
      const { done, value } = await reader.read();
      if (done) return clearTimeout(close);
      dropped += value.byteLength;
    }
  })().catch(() => clearTimeout(close));
}

/**
 * A body read through `refuse`, which sees each chunk as it arrives and names the error that stops
 * the body there (null to go on). The refused chunk and what follows it are never handed on.
 */
export function guardedBody(body: ReadableStream<Uint8Array>, refuse: (chunk: Uint8Array) => unknown): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        const refusal = refuse(value);
        if (refusal) {
          letGo(reader);
          return controller.error(refusal);
        }
        controller.enqueue(value);
      },
      cancel: () => letGo(reader),
    },
    // Nothing is read ahead of the consumer: each chunk is pulled when it is asked for.
    { highWaterMark: 0 },
  );
}

/**
 * A request's whole body, of at most `maxBytes`; past them (declared in Content-Length, or counted
 * as it arrives) `tooLarge()` is thrown, having read no more than the bound and one chunk.
 */
export async function readBodyBytes(request: Request, maxBytes: number, tooLarge: () => unknown): Promise<Buffer> {
  if (!request.body) return Buffer.alloc(0);
  if (Number(request.headers.get("content-length")) > maxBytes) {
    letGo(request.body.getReader());
    throw tooLarge();
  }
  let size = 0;
  const body = guardedBody(request.body, (chunk) => ((size += chunk.byteLength) > maxBytes ? tooLarge() : null));
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return Buffer.concat(chunks);
}

/** A body already read, parsed as form data the way its request would be, under its Content-Type; rejects when it is none. */
export function formDataOf(bytes: Buffer, contentType: string): Promise<FormData> {
  const view = new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
  return new Response(view, { headers: { "content-type": contentType } }).formData();
}
