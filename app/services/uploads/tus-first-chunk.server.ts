import type { IncomingMessage, ServerResponse } from "node:http";
import { HEADERS, type Server, TUS_RESUMABLE } from "@tus/server";
import { SIGNATURE_BYTES, refusalForHead } from "~/media/file-signature";
import { corsOriginOf } from "~/services/uploads/tus-endpoint.server";

const NUMBER = /^(0|[1-9]\d*)$/;
const UPLOAD_ID = /^[\w-]+$/;

/**
 * Judges an upload by the first bytes of its first chunk, before any of them is written: a file
 * that is no photo or video, or a sound file, is refused there (415, our error shape) and its
 * upload removed, instead of after the contributor has sent all of it
 * (docs/decisions/014-file-types-judged-by-first-bytes.md). Resolves to true when it answered
 * the request (or the client left while it was read); false leaves the request, unread, to tus.
 *
 * The rest of a refused chunk is read and dropped by Node, not written: answering while the
 * client still sends and then closing the connection would reach a browser as a network error
 * (a reset) and make it retry, instead of showing the reason.
 */
export function firstChunkCheck(tus: Server, endpoint: string, exposedHeaders: string[]) {
  const store = tus.datastore;
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const start = firstBytesOf(req, endpoint);
    if (!start) return false;
    let size: number | undefined;
    if (start.id) {
      const upload = await store.getUpload(start.id).catch(() => null);
      // Unknown, gone or already under way: tus answers as it always does.
      if (!upload || upload.offset !== 0) return false;
      size = upload.size;
    } else {
      size = start.declaredSize;
    }
    const wanted = Math.min(SIGNATURE_BYTES, start.length, size ?? Infinity);
    const head = await peekBody(req, wanted);
    // The client left before its first bytes arrived: nothing was written, it resumes at 0.
    if (!head) return true;
    const refusal = refusalForHead(head, { wholeFile: size !== undefined && head.length >= size });
    if (!refusal) return false;
    if (start.id) await store.remove(start.id).catch(() => {});
    res
      .writeHead(415, {
        "Content-Type": "application/json",
        "Tus-Resumable": TUS_RESUMABLE,
        "Access-Control-Allow-Origin": corsOriginOf(tus),
        "Access-Control-Expose-Headers": [...HEADERS, ...exposedHeaders].join(", "),
      })
      .end(JSON.stringify({ success: false, error: { code: refusal.code, message: refusal.message } }));
    return true;
  };
}

/**
 * A request that carries an upload's first bytes: a PATCH at offset 0 (its id from the URL), or a
 * creation that sends data along (tus's creation-with-upload, before the upload has an id).
 * Only with a Content-Length, as every tus client sends it: a body of unknown length is left to
 * processing to judge.
 */
function firstBytesOf(req: IncomingMessage, endpoint: string) {
  const { headers } = req;
  const length = headers["content-length"];
  if (typeof length !== "string" || !NUMBER.test(length) || Number(length) === 0) return null;
  if (headers["content-type"] !== "application/offset+octet-stream") return null;
  const url = (req.url ?? "").split("?")[0]!;
  if (req.method === "PATCH" && headers["upload-offset"] === "0") {
    const id = url.startsWith(`${endpoint}/`) ? url.slice(endpoint.length + 1) : "";
    return UPLOAD_ID.test(id) ? { id, length: Number(length), declaredSize: undefined } : null;
  }
  if (req.method === "POST" && url === endpoint) {
    const declared = headers["upload-length"];
    const declaredSize = typeof declared === "string" && NUMBER.test(declared) ? Number(declared) : undefined;
    return { id: null, length: Number(length), declaredSize };
  }
  return null;
}

/**
 * The first `bytes` of a request's body, put back at its front so whoever reads the request next
 * reads them again; null when the request ended or broke off before they arrived.
 */
export function peekBody(req: IncomingMessage, bytes: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let received = 0;
    const settle = (head: Buffer | null) => {
      req.off("readable", onReadable);
      req.off("end", onGone);
      req.off("close", onGone);
      req.off("error", onGone);
      resolve(head);
    };
    function onReadable() {
      let part: Buffer | null;
      while (received < bytes && (part = req.read() as Buffer | null) !== null) {
        parts.push(part);
        received += part.length;
      }
      if (received < bytes) return;
      const head = Buffer.concat(parts);
      // Put back in the same tick as the last read, before the stream can announce its end.
      req.unshift(head);
      settle(head.subarray(0, bytes));
    }
    function onGone() {
      settle(null);
    }
    req.on("readable", onReadable);
    req.once("end", onGone);
    req.once("close", onGone);
    req.once("error", onGone);
  });
}
