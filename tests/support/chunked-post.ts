import net from "node:net";

export interface ChunkedPostOutcome {
  /** The answer, when one came before the connection ended. */
  status: number | null;
  body: string;
  /** Bytes of the body written to the socket when the answer's head arrived: the server read no more than these. */
  sentBeforeAnswer: number | null;
  /** Bytes of the body the socket took before the server closed the connection (or the whole body). */
  sent: number;
}

interface Answer {
  status: number;
  body: string;
}

/** A whole HTTP/1.1 answer in `raw`, or null while it is still coming. */
function answerIn(raw: Buffer): Answer | null {
  const headEnd = raw.indexOf("\r\n\r\n");
  if (headEnd < 0) return null;
  const head = raw.subarray(0, headEnd).toString("latin1");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  let rest = raw.subarray(headEnd + 4);
  const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
  if (length !== undefined)
    return rest.length >= Number(length) ? { status, body: rest.subarray(0, Number(length)).toString("utf8") } : null;
  if (!/\r\ntransfer-encoding: *chunked/i.test(head)) return null;
  const parts: Buffer[] = [];
  for (;;) {
    const sizeEnd = rest.indexOf("\r\n");
    if (sizeEnd < 0) return null;
    const size = parseInt(rest.subarray(0, sizeEnd).toString("latin1"), 16);
    if (size === 0) return { status, body: Buffer.concat(parts).toString("utf8") };
    if (rest.length < sizeEnd + 2 + size + 2) return null;
    parts.push(rest.subarray(sizeEnd + 2, sizeEnd + 2 + size));
    rest = rest.subarray(sizeEnd + 2 + size + 2);
  }
}

/**
 * Posts `totalBytes` over a socket of its own with `Transfer-Encoding: chunked` (no Content-Length),
 * a chunk at a time as the socket takes it, on a connection asked to be kept alive as a browser's
 * is, and goes on writing after the answer: a server that stops reading shows as a connection
 * closed before the whole body went.
 */
export function postChunked(
  port: number,
  path: string,
  options: { totalBytes: number; headers?: Record<string, string>; chunk?: Buffer },
): Promise<ChunkedPostOutcome> {
  const chunk = options.chunk ?? Buffer.alloc(64 * 1024, "a");
  const outcome: ChunkedPostOutcome = { status: null, body: "", sentBeforeAnswer: null, sent: 0 };
  const socket = net.connect({ host: "localhost", port });
  let received = Buffer.alloc(0);
  let answered = false;
  return new Promise((resolve) => {
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(outcome);
    };
    socket.on("data", (data: Buffer) => {
      received = Buffer.concat([received, data]);
      if (outcome.sentBeforeAnswer === null && received.includes("\r\n\r\n")) outcome.sentBeforeAnswer = outcome.sent;
      const answer = answerIn(received);
      if (answer && !answered) {
        answered = true;
        Object.assign(outcome, answer);
      }
    });
    // The server cutting the connection while the body is still being written ends the post.
    socket.on("error", settle);
    socket.on("close", settle);
    const drained = () =>
      new Promise<void>((done) => {
        const go = () => {
          socket.off("drain", go).off("close", go);
          done();
        };
        socket.on("drain", go).on("close", go);
      });
    void (async () => {
      const headers = { host: `localhost:${port}`, connection: "keep-alive", ...options.headers, "transfer-encoding": "chunked" };
      socket.write(
        `POST ${path} HTTP/1.1\r\n${Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join("")}\r\n`,
      );
      while (outcome.sent < options.totalBytes && !socket.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, options.totalBytes - outcome.sent));
        const more = socket.write(Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]));
        outcome.sent += piece.length;
        if (!more) await drained();
        // Lets the answer's arrival be seen between two writes.
        await new Promise((next) => setImmediate(next));
      }
      if (socket.destroyed) return;
      socket.write("0\r\n\r\n");
      // The whole body went: the answer is what there is, once it is whole.
      const wait = setInterval(() => {
        if (!answered) return;
        clearInterval(wait);
        settle();
      }, 20);
    })();
  });
}
