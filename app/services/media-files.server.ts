import { createReadableStreamFromReadable } from "@remix-run/node";
import type { Media } from "../../drizzle/schema/index";
import { parseByteRange } from "~/lib/byte-range";
import { storage } from "./storage.server";

/** The storage key behind a media variant name: original, rendition, poster or a thumbnail. */
export function keyOfVariant(record: Media, variant: string) {
  if (variant === "original") return record.originalKey;
  if (variant === "rendition") return record.renditionKey;
  if (variant === "poster") return record.posterKey;
  return record.thumbnails[variant] ?? null;
}

const safeFilename = (name: string) => name.replace(/[^\w.\- ]+/g, "_").slice(0, 120) || "download";

/**
 * Streams a stored file with HTTP range support (206 for a range, 416 when it
 * cannot be met), so phones can seek in long clips without fetching them whole.
 */
export async function serveStoredFile(request: Request, key: string, options: { downloadName?: string } = {}) {
  const info = await storage().stat(key);
  if (!info) return new Response("Not found", { status: 404 });
  const headers = new Headers({
    "Content-Type": info.contentType,
    "Accept-Ranges": "bytes",
    "Cache-Control": "private, max-age=3600",
    "X-Content-Type-Options": "nosniff",
  });
  if (options.downloadName) headers.set("Content-Disposition", `attachment; filename="${safeFilename(options.downloadName)}"`);
  const range = parseByteRange(request.headers.get("range"), info.size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${info.size}`);
    return new Response(null, { status: 416, headers });
  }
  if (request.method === "HEAD") {
    headers.set("Content-Length", String(info.size));
    return new Response(null, { status: 200, headers });
  }
  const body = await storage().read(key, range ?? undefined);
  if (range) {
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${info.size}`);
    headers.set("Content-Length", String(range.end - range.start + 1));
    return new Response(createReadableStreamFromReadable(body), { status: 206, headers });
  }
  headers.set("Content-Length", String(info.size));
  return new Response(createReadableStreamFromReadable(body), { status: 200, headers });
}
