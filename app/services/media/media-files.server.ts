import { createReadableStreamFromReadable } from "@remix-run/node";
import type { Media } from "drizzle/schema";
import { parseByteRange } from "~/lib/byte-range";
import { storage } from "~/services/media/storage.server";

/** The storage key behind a media variant name: original, rendition, poster or a thumbnail. */
export function keyOfVariant(record: Media, variant: string) {
  if (variant === "original") return record.originalKey;
  if (variant === "rendition") return record.renditionKey;
  if (variant === "poster") return record.posterKey;
  return record.thumbnails[variant] ?? null;
}

const safeFilename = (name: string) => name.replace(/[^\w.\- ]+/g, "_").slice(0, 120) || "download";

// Only pictures and clips are served as themselves. An original keeps the type its contributor
// declared (text/html, image/svg+xml…): anything else goes out as a download, so an upload can
// never run as a page of this site.
const INLINE_TYPES = new Set([
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/gif",
  "image/avif",
  "image/heic",
  "video/mp4",
  "video/quicktime",
  "video/webm",
  "video/x-m4v",
  "video/3gpp",
  "video/x-matroska",
]);

/**
 * Streams a stored file with HTTP range support (206 for a range, 416 when it
 * cannot be met), so phones can seek in long clips without fetching them whole.
 */
export async function serveStoredFile(request: Request, key: string, options: { downloadName?: string } = {}) {
  const info = await storage().stat(key);
  if (!info) return new Response("Not found", { status: 404 });
  const inline = INLINE_TYPES.has(info.contentType.toLowerCase());
  const headers = new Headers({
    "Content-Type": inline ? info.contentType : "application/octet-stream",
    "Accept-Ranges": "bytes",
    "Cache-Control": "private, max-age=3600",
    "X-Content-Type-Options": "nosniff",
  });
  if (options.downloadName || !inline) {
    headers.set("Content-Disposition", `attachment; filename="${safeFilename(options.downloadName ?? "")}"`);
  }
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
