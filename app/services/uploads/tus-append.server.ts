import { once } from "node:events";
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { FileStore } from "@tus/file-store";
import { ERRORS, EVENTS, HEADERS, type Server, TUS_RESUMABLE } from "@tus/server";
import { corsOriginOf, tusErrorAnswer } from "~/services/uploads/tus-endpoint.server";
import { firstChunkCheck } from "~/services/uploads/tus-first-chunk.server";

/** A chunk's body is written in writes of up to 1 MiB, not the 16 KiB a write stream defaults to. */
const WRITE_BUFFER_BYTES = 1024 * 1024;
const UPLOAD_ID = /^[\w-]+$/;
const NUMBER = /^(0|[1-9]\d*)$/;
/** Headers that take a PATCH off the plain path: each needs a check or an extension tus implements. */
const UNUSUAL_HEADERS = ["upload-length", "upload-defer-length", "upload-concat", "upload-metadata", "tus-version", "transfer-encoding"];

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * Serves the tus endpoint, writing the middle chunks of an upload straight to its file.
 *
 * `@tus/server` turns each request body into a web stream and back and passes it through three
 * more streams into a write stream with a 16 KiB buffer; on loopback that halves the throughput of
 * a plain write (docs/decisions/009-own-tus-patch-path.md). A PATCH that only appends bytes to a
 * known, unexpired upload at its offset on disk, and does not finish it, is written here: to the
 * same file, under the same lock, answered as tus answers it. Every other request, every refusal
 * and the last chunk (whose hook records the media) are left to tus, so the protocol's checks and
 * our hooks stay in one place. Before either, an upload's first bytes are judged
 * (tus-first-chunk.server.ts): a file that is no photo or video is refused there.
 */
export function tusRequestHandler(tus: Server, endpoint: string): NodeHandler {
  const store = tus.datastore;
  const { allowedOrigins, allowedCredentials, onIncomingRequest, getFileIdFromRequest, exposedHeaders = [] } = tus.options;
  const lockDrainMs = tus.options.lockDrainTimeout ?? 3000;
  // Options that change how tus answers a chunk: with any of them set, tus answers every chunk. So
  // it does when uploads are staged in a bucket rather than in files (bucket-staging.server.ts).
  const lockerOption = tus.options.locker;
  const locker =
    !(store instanceof FileStore) ||
    // One allowed origin is answered here as tus answers it (corsOriginOf); anything else is tus's.
    (allowedOrigins !== undefined && !(Array.isArray(allowedOrigins) && allowedOrigins.length === 1)) ||
    allowedCredentials ||
    onIncomingRequest ||
    getFileIdFromRequest ||
    typeof lockerOption === "function"
      ? null
      : Promise.resolve(lockerOption);
  const answerHeaders = {
    "Tus-Resumable": TUS_RESUMABLE,
    "Access-Control-Allow-Origin": corsOriginOf(tus),
    "Access-Control-Expose-Headers": [...HEADERS, ...exposedHeaders].join(", "),
  };
  const delegate: NodeHandler = (req, res) => tus.handle(req, res);
  const refusedByFirstBytes = firstChunkCheck(tus, endpoint, exposedHeaders);

  /** Writes the chunk and answers it, or says tus should ('tus': nothing was read from the request). */
  const append = async (req: IncomingMessage, res: ServerResponse, id: string, offset: number, length: number) => {
    // The store's own view of the upload, as tus reads it for every chunk: its size, its offset on
    // disk (the file's size) and the date its expiry is reckoned from.
    const upload = await store.getUpload(id).catch(() => null);
    const period = store.hasExtension("expiration") ? store.getExpiration() : 0;
    const expires = period > 0 && upload?.creation_date ? Date.parse(upload.creation_date) + period : undefined;
    const target = upload?.storage?.path;
    // Unknown, gone, expired, at another offset, finishing or overfilling the upload, or of a length
    // still to be declared: tus gives the answer (404, 410, 409, the finish hook, 413).
    if (
      !target ||
      upload.size === undefined ||
      upload.offset !== offset ||
      offset + length >= upload.size ||
      (expires !== undefined && Date.now() > expires)
    ) {
      return "tus";
    }

    const file = fs.createWriteStream(target, { flags: "r+", start: offset, highWaterMark: WRITE_BUFFER_BYTES });
    try {
      await pipeline(req, file);
    } catch {
      // A dropped connection: what reached the disk is the upload's offset, which the client asks for (HEAD).
    }
    // The lock goes only once every write has reached the file, so the next request sees the true offset.
    if (!file.closed) await once(file, "close").catch(() => {});
    if (res.destroyed) return "answered";
    if (file.bytesWritten !== length) {
      res.writeHead(ERRORS.FILE_WRITE_ERROR.status_code, { Connection: "close" }).end(ERRORS.FILE_WRITE_ERROR.body);
      return "answered";
    }
    const expiry = expires === undefined ? {} : { "Upload-Expires": new Date(expires).toUTCString() };
    res.writeHead(204, { ...answerHeaders, "Upload-Offset": String(offset + length), ...expiry }).end();
    return "answered";
  };

  return async (req, res) => {
    if (await refusedByFirstBytes(req, res)) return;
    const chunk = locker && tus.listenerCount(EVENTS.POST_RECEIVE) === 0 && plainAppend(req, endpoint);
    if (!chunk) return delegate(req, res);

    const lock = (await locker).newLock(chunk.id);
    const gone = new AbortController();
    req.once("close", () => gone.abort());
    let release: NodeJS.Timeout | undefined;
    try {
      // Another request for this upload (a client resuming on a new connection) waits for the lock:
      // this one gets the grace tus gives it, then its body is no longer read.
      await lock.lock(gone.signal, async () => {
        release ??= setTimeout(() => req.destroy(new Error("the upload was resumed by another request")), lockDrainMs);
      });
    } catch (error) {
      // The client left while it waited, or the lock stayed taken: tus's own answer. The database
      // that keeps the lock away: 503, which the browser tries again after (tusErrorAnswer).
      const answer = error === ERRORS.ERR_LOCK_TIMEOUT ? ERRORS.ERR_LOCK_TIMEOUT : tusErrorAnswer(error);
      if (!res.destroyed) res.writeHead(answer.status_code, { Connection: "close" }).end(answer.body);
      return;
    }
    let outcome: "tus" | "answered";
    try {
      outcome = await append(req, res, chunk.id, chunk.offset, chunk.length);
    } finally {
      clearTimeout(release);
      await lock.unlock();
    }
    if (outcome === "tus") await delegate(req, res);
  };
}

/** The upload, offset and length of a PATCH in tus's common form, or null for anything else. */
function plainAppend(req: IncomingMessage, endpoint: string) {
  if (req.method !== "PATCH") return null;
  const url = (req.url ?? "").split("?")[0]!;
  const id = url.startsWith(`${endpoint}/`) ? url.slice(endpoint.length + 1) : "";
  const { headers } = req;
  const offset = headers["upload-offset"];
  const length = headers["content-length"];
  const forwarded = headers["x-forwarded-proto"];
  const plain =
    UPLOAD_ID.test(id) &&
    headers["tus-resumable"] === TUS_RESUMABLE &&
    headers["content-type"] === "application/offset+octet-stream" &&
    typeof offset === "string" &&
    NUMBER.test(offset) &&
    typeof length === "string" &&
    NUMBER.test(length) &&
    (forwarded === undefined || forwarded === "http" || forwarded === "https") &&
    UNUSUAL_HEADERS.every((name) => headers[name] === undefined);
  return plain ? { id, offset: Number(offset), length: Number(length) } : null;
}
