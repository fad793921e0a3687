import type { Media } from "drizzle/schema";
import { parseByteRange } from "~/lib/byte-range";
import type { FileToSend } from "~/lib/file-response.server";
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
 * What to send for a stored file: its type (pictures and clips as themselves, anything else as a
 * download), the byte range a Range header asks for, and its bytes unless only the headers are
 * wanted (HEAD, answered for the whole file). Null when nothing is stored under `key`.
 */
export async function storedFileToSend(
  key: string,
  request: { range: string | null; withBody: boolean },
  options: { downloadName?: string } = {},
): Promise<FileToSend | null> {
  const info = await storage().stat(key);
  if (!info) return null;
  const inline = INLINE_TYPES.has(info.contentType.toLowerCase());
  const file: FileToSend = {
    size: info.size,
    contentType: inline ? info.contentType : "application/octet-stream",
    attachmentName: options.downloadName || !inline ? safeFilename(options.downloadName ?? "") : null,
    range: parseByteRange(request.range, info.size),
    body: null,
  };
  if (file.range === "unsatisfiable") return file;
  if (!request.withBody) return { ...file, range: null };
  return { ...file, body: await storage().read(key, file.range ?? undefined) };
}
