// A raw tus 1.0 client over node:http, for tests and the upload bench: it speaks the protocol the
// way tus-js-client does in the browser (create, PATCH in chunks, HEAD to resume), and can drop a
// connection part-way through a chunk, which a real client cannot do on purpose. node:http rather
// than fetch: undici's body streaming caps loopback uploads near 100 MB/s, a bench of itself.
import fs from "node:fs/promises";
import http from "node:http";

export const TUS_ENDPOINT = "/uploads/tus";
const TUS_VERSION = { "Tus-Resumable": "1.0.0" };
const PATCH_HEADERS = { ...TUS_VERSION, "Content-Type": "application/offset+octet-stream" };

// Connections are reused between chunks, as a browser does.
const agent = new http.Agent({ keepAlive: true });

/**
 * The token each upload this client made was made with (its metadata's uploadToken), by upload path:
 * sent in X-Upload-Token with the upload's own requests, as the browser's client sends it (the
 * server answers an upload's HEAD, PATCH and DELETE only with it: docs/decisions/013).
 */
const uploadTokens = new Map<string, string>();
export const uploaderHeaders = (path: string): Record<string, string> => {
  const token = uploadTokens.get(new URL(path, "http://localhost").pathname);
  return token ? { "X-Upload-Token": token } : {};
};

/** A refused tus request: its status and body (our JSON error shape when the app refused it). */
export class TusRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const message = (body as { error?: { message?: string } } | null)?.error?.message ?? String(body).trim();
    super(`tus request refused with ${status}: ${message}`);
  }

  /** The message the app meant for the person uploading. */
  get userMessage() {
    return (this.body as { error?: { message?: string } } | null)?.error?.message ?? null;
  }
}

/** `Upload-Metadata`: comma-separated `key base64(value)` pairs. */
export function encodeMetadata(metadata: Record<string, string>) {
  return Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value, "utf8").toString("base64")}`)
    .join(",");
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON when the body is JSON, else its text. */
  body: unknown;
}

function send(url: URL, method: string, headers: Record<string, string>, body?: Uint8Array): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, agent, headers: { ...headers, "Content-Length": String(body?.byteLength ?? 0) } },
      (response) => {
        const parts: Buffer[] = [];
        response.on("data", (part: Buffer) => parts.push(part));
        response.on("error", reject);
        response.on("end", () => {
          const text = Buffer.concat(parts).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON: the caller sees the text */
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed });
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const header = (reply: Reply, name: string) => {
  const value = reply.headers[name];
  return typeof value === "string" ? value : null;
};

/** Starts an upload of `size` bytes; resolves to its path (the server's relative Location). */
export async function create(baseUrl: string, size: number, metadata: Record<string, string>): Promise<string> {
  const reply = await send(new URL(TUS_ENDPOINT, baseUrl), "POST", {
    ...TUS_VERSION,
    "Upload-Length": String(size),
    "Upload-Metadata": encodeMetadata(metadata),
  });
  if (reply.status !== 201) throw new TusRequestError(reply.status, reply.body);
  const location = header(reply, "location");
  if (!location) throw new Error("tus create answered 201 without a Location");
  const path = new URL(location, baseUrl).pathname;
  if (metadata.uploadToken) uploadTokens.set(path, metadata.uploadToken);
  return path;
}

/** What a HEAD answers: its status, the offset the server holds and, for a recorded upload, its item. */
export async function headReply(baseUrl: string, path: string) {
  const reply = await send(new URL(path, baseUrl), "HEAD", { ...TUS_VERSION, ...uploaderHeaders(path) });
  return { status: reply.status, offset: Number(header(reply, "upload-offset")), mediaUuid: header(reply, "chorus-media-id") };
}

/** The offset the server holds for an upload. */
export async function head(baseUrl: string, path: string): Promise<number> {
  const reply = await headReply(baseUrl, path);
  if (reply.status !== 200) throw new TusRequestError(reply.status, null);
  return reply.offset;
}

export interface PatchResult {
  offset: number;
  /** Set by the server on the request that completed the upload. */
  mediaUuid: string | null;
}

/** Sends `bytes` at `offset`; resolves to the new offset. */
export async function patch(baseUrl: string, path: string, offset: number, bytes: Uint8Array): Promise<PatchResult> {
  const reply = await send(
    new URL(path, baseUrl),
    "PATCH",
    { ...PATCH_HEADERS, ...uploaderHeaders(path), "Upload-Offset": String(offset) },
    bytes,
  );
  if (reply.status !== 204 && reply.status !== 200) throw new TusRequestError(reply.status, reply.body);
  return { offset: Number(header(reply, "upload-offset")), mediaUuid: header(reply, "chorus-media-id") };
}

/** Asks the server to drop an upload (tus termination); resolves to the status it answered. */
export async function terminate(baseUrl: string, path: string): Promise<number> {
  return (await send(new URL(path, baseUrl), "DELETE", { ...TUS_VERSION, ...uploaderHeaders(path) })).status;
}

/**
 * Starts a PATCH of `bytes` but writes only the first `cutAfter`, then drops the connection
 * the way a phone losing signal does. `whileCut` runs after those bytes are out and before the
 * socket is destroyed (a test restarts the server there). Resolves once the socket is gone.
 */
export function patchAndCut(
  baseUrl: string,
  path: string,
  offset: number,
  bytes: Uint8Array,
  cutAfter: number,
  whileCut?: () => Promise<void>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    // A connection of its own (no agent): it is about to be destroyed.
    const request = http.request(new URL(path, baseUrl), {
      method: "PATCH",
      headers: { ...PATCH_HEADERS, ...uploaderHeaders(path), "Upload-Offset": String(offset), "Content-Length": String(bytes.byteLength) },
    });
    // The server may answer or reset before the cut; either way the chunk is unfinished.
    request.on("error", () => {});
    request.on("response", (response) => response.resume());
    request.on("close", () => resolve());
    request.write(bytes.subarray(0, Math.min(cutAfter, bytes.byteLength)), async () => {
      try {
        // Let the written bytes reach the server before the line goes dead.
        await new Promise((settle) => setTimeout(settle, 50));
        await whileCut?.();
        request.destroy();
      } catch (error) {
        request.destroy();
        reject(error);
      }
    });
  });
}

/** A planned failure of one chunk's request: the connection drops after `cutAfter` bytes. */
export interface Interruption {
  cutAfter: number;
  whileCut?: () => Promise<void>;
}

export interface UploadOptions {
  /** Bytes per PATCH, like tus-js-client's chunkSize. */
  chunkSize: number;
  /** Asked before every chunk: an answer cuts that chunk's connection (see patchAndCut). */
  interrupt?: (chunk: { index: number; offset: number }) => Interruption | undefined;
  /** Failed requests in a row before giving up. */
  maxFailures?: number;
}

export interface UploadResult {
  path: string;
  mediaUuid: string | null;
  /** Bytes put on the wire, the cut requests' partial bodies included. */
  sentBytes: number;
  /** Bytes sent more than once: written before a cut but not kept by the server. */
  resentBytes: number;
  /** Bytes lost at each cut (sent, not kept), in order. */
  lostPerCut: number[];
  requests: number;
}

/**
 * Uploads a file (a path, read one chunk at a time, or bytes) in chunks, resuming from the
 * server's offset (HEAD) after any failure. `baseUrl` may be a function: it is read before
 * every request, so an upload can continue on a restarted server at a new address.
 */
export async function uploadFile(
  baseUrl: string | (() => string),
  source: string | Uint8Array,
  metadata: Record<string, string>,
  { chunkSize, interrupt, maxFailures = 20 }: UploadOptions,
): Promise<UploadResult> {
  const base = typeof baseUrl === "function" ? baseUrl : () => baseUrl;
  const file = typeof source === "string" ? await fs.open(source, "r") : null;
  try {
    const size = file ? (await file.stat()).size : (source as Uint8Array).byteLength;
    const buffer = file ? Buffer.alloc(chunkSize) : null;
    const chunkAt = async (offset: number) => {
      const length = Math.min(chunkSize, size - offset);
      if (!file) return (source as Uint8Array).subarray(offset, offset + length);
      const { bytesRead } = await file.read(buffer!, 0, length, offset);
      return buffer!.subarray(0, bytesRead);
    };

    const path = await create(base(), size, metadata);
    const result: UploadResult = { path, mediaUuid: null, sentBytes: 0, resentBytes: 0, lostPerCut: [], requests: 1 };
    let offset = 0;
    let failures = 0;
    for (let index = 0; offset < size; index++) {
      const bytes = await chunkAt(offset);
      const planned = interrupt?.({ index, offset });
      const sending = planned ? Math.min(planned.cutAfter, bytes.byteLength) : bytes.byteLength;
      result.requests += 1;
      result.sentBytes += sending;
      try {
        if (planned) {
          await patchAndCut(base(), path, offset, bytes, planned.cutAfter, planned.whileCut);
        } else {
          const answer = await patch(base(), path, offset, bytes);
          offset = answer.offset;
          result.mediaUuid = answer.mediaUuid ?? result.mediaUuid;
          failures = 0;
          continue;
        }
      } catch (error) {
        // Like the browser client: a refusal will not change on retry; trouble on the line may.
        if (error instanceof TusRequestError && !isWorthRetrying(error.status)) throw error;
        if (++failures > maxFailures) throw error;
      }
      const resumed = await resumeOffset(base, path);
      const lost = offset + sending - resumed;
      if (planned) result.lostPerCut.push(lost);
      result.resentBytes += Math.max(0, lost);
      offset = resumed;
    }
    return result;
  } finally {
    await file?.close();
  }
}

/** HEAD until the server answers (it may be restarting), with a short pause between tries. */
async function resumeOffset(base: () => string, path: string) {
  for (let tries = 1; ; tries++) {
    try {
      return await head(base(), path);
    } catch (error) {
      if (tries >= 20) throw error;
      await new Promise((settle) => setTimeout(settle, Math.min(100 * tries, 1000)));
    }
  }
}

const isWorthRetrying = (status: number) => status >= 500 || status === 409 || status === 423;

/** How a PATCH sent with `patchSlowly` ended: its status, or 0 when the server dropped the connection. */
export interface SlowPatchReply {
  status: number;
  offset: number | null;
  mediaUuid: string | null;
}

/**
 * Sends `bytes` at `offset` as a phone on a slow link does: the headers at once, then the body in
 * `pieces` parts `pauseMs` apart (the first part after a pause too, so a server has looked at the
 * upload before any of it arrives). Resolves however it ends: answered, or cut by the server.
 */
export function patchSlowly(
  baseUrl: string,
  path: string,
  offset: number,
  bytes: Uint8Array,
  { pieces, pauseMs }: { pieces: number; pauseMs: number },
): Promise<SlowPatchReply> {
  return new Promise((resolve) => {
    // A connection of its own: the server may close it.
    const request = http.request(new URL(path, baseUrl), {
      method: "PATCH",
      headers: { ...PATCH_HEADERS, ...uploaderHeaders(path), "Upload-Offset": String(offset), "Content-Length": String(bytes.byteLength) },
    });
    let settled = false;
    const settle = (reply: SlowPatchReply) => {
      if (settled) return;
      settled = true;
      resolve(reply);
    };
    request.on("error", () => settle({ status: 0, offset: null, mediaUuid: null }));
    request.on("close", () => settle({ status: 0, offset: null, mediaUuid: null }));
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => {
        const value = (name: string) => (typeof response.headers[name] === "string" ? (response.headers[name] as string) : null);
        const answered = value("upload-offset");
        settle({
          status: response.statusCode ?? 0,
          offset: answered === null ? null : Number(answered),
          mediaUuid: value("chorus-media-id"),
        });
      });
    });
    request.flushHeaders();
    const size = Math.ceil(bytes.byteLength / pieces);
    void (async () => {
      for (let at = 0; at < bytes.byteLength && !settled && !request.destroyed; at += size) {
        await new Promise((pause) => setTimeout(pause, pauseMs));
        if (settled || request.destroyed) return;
        await new Promise<void>((written) => request.write(bytes.subarray(at, at + size), () => written()));
      }
      if (!settled && !request.destroyed) request.end();
    })();
  });
}

/**
 * Starts a PATCH of `bytes` at `offset`, sends the first `sendFirst` of them and then nothing more,
 * keeping the connection open: a phone whose signal went while its request was being read.
 * `closedByServer` resolves when the server ends the request; `abandon` drops it from this side.
 */
export function patchAndStall(baseUrl: string, path: string, offset: number, bytes: Uint8Array, sendFirst: number) {
  const request = http.request(new URL(path, baseUrl), {
    method: "PATCH",
    headers: { ...PATCH_HEADERS, ...uploaderHeaders(path), "Upload-Offset": String(offset), "Content-Length": String(bytes.byteLength) },
  });
  request.on("error", () => {});
  request.on("response", (response) => response.resume());
  const closedByServer = new Promise<void>((resolve) => request.on("close", () => resolve()));
  request.write(bytes.subarray(0, sendFirst));
  return { closedByServer, abandon: () => request.destroy() };
}
