/**
 * What a file is, judged from its first bytes: shared by the browser (before anything is sent),
 * the tus endpoint (at an upload's first chunk) and the no-JavaScript form (while it streams), so
 * a file that can never become part of a video is refused before the contributor's data is spent
 * on it (docs/decisions/014-file-types-judged-by-first-bytes.md). Pure: no Node or DOM APIs.
 *
 * Processing still decides with sharp and ffprobe; this only turns away what it would surely
 * refuse: no signature we know, or a sound file.
 */

/** Bytes read from the start of a file to judge it: an MP4's `ftyp` box and its brands fit many times over. */
export const SIGNATURE_BYTES = 4096;

export type FileSignature = { kind: "photo" | "video" | "audio"; mime: string };

export const ASK_FOR_PHOTO_OR_VIDEO = "Please upload a photo or a video.";
export const NOT_A_PHOTO_OR_VIDEO = `This doesn't look like a photo or a video. ${ASK_FOR_PHOTO_OR_VIDEO}`;
export const SOUND_FILE = `This is a sound file. ${ASK_FOR_PHOTO_OR_VIDEO}`;

export type SignatureRefusal = { code: "UNSUPPORTED_TYPE" | "EMPTY"; message: string };

const EMPTY_FILE = "This file is empty.";

// ISO base media (MP4, MOV, HEIC, M4A) names its flavour by brands in its first box, `ftyp`.
const HEIC_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]);
const AVIF_BRANDS = new Set(["avif", "avis"]);
const AUDIO_BRANDS = new Set(["M4A ", "M4B ", "M4P ", "F4A ", "F4B "]);
// Old QuickTime files start with one of these boxes instead of `ftyp`.
const QUICKTIME_FIRST_BOXES = new Set(["moov", "mdat", "free", "skip", "wide", "pnot", "uuid"]);

/** The kind and type of a file from its first bytes (at most SIGNATURE_BYTES are looked at); null when unknown. */
export function fileSignature(head: Uint8Array): FileSignature | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, Math.min(to, head.length)));
  const starts = (...bytes: number[]) => head.length >= bytes.length && bytes.every((byte, i) => head[i] === byte);

  if (starts(0xff, 0xd8, 0xff)) return { kind: "photo", mime: "image/jpeg" };
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { kind: "photo", mime: "image/png" };
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return { kind: "photo", mime: "image/gif" };
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return { kind: "photo", mime: "image/tiff" };
  if (ascii(0, 4) === "RIFF") {
    const form = ascii(8, 12);
    if (form === "WEBP") return { kind: "photo", mime: "image/webp" };
    if (form === "AVI ") return { kind: "video", mime: "video/x-msvideo" };
    if (form === "WAVE") return { kind: "audio", mime: "audio/wav" };
    return null;
  }
  if (ascii(4, 8) === "ftyp") return isoBrandSignature(head, ascii);
  if (head.length >= 8 && QUICKTIME_FIRST_BOXES.has(ascii(4, 8))) return { kind: "video", mime: "video/quicktime" };
  if (starts(0x1a, 0x45, 0xdf, 0xa3)) {
    // The EBML header names its DocType near the start: "webm" or "matroska".
    return { kind: "video", mime: ascii(0, 64).includes("webm") ? "video/webm" : "video/x-matroska" };
  }
  if (ascii(0, 3) === "FLV") return { kind: "video", mime: "video/x-flv" };

  if (ascii(0, 3) === "ID3") return { kind: "audio", mime: "audio/mpeg" };
  // An MPEG audio frame (MP3) or an ADTS frame (AAC): 11 sync bits, then a layer other than "reserved".
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0) {
    const layer = (head[1]! >> 1) & 0x03;
    const version = (head[1]! >> 3) & 0x03;
    if (layer === 0 && (version === 2 || version === 3)) return { kind: "audio", mime: "audio/aac" };
    if (layer !== 0) return { kind: "audio", mime: "audio/mpeg" };
  }
  if (ascii(0, 4) === "fLaC") return { kind: "audio", mime: "audio/flac" };
  if (ascii(0, 4) === "OggS") return { kind: "audio", mime: "audio/ogg" };
  if (ascii(0, 5) === "#!AMR") return { kind: "audio", mime: "audio/amr" };
  if (ascii(0, 4) === "FORM" && ["AIFF", "AIFC"].includes(ascii(8, 12))) return { kind: "audio", mime: "audio/aiff" };
  if (ascii(0, 4) === "caff") return { kind: "audio", mime: "audio/x-caf" };
  return null;
}

function isoBrandSignature(head: Uint8Array, ascii: (from: number, to: number) => string): FileSignature {
  const major = ascii(8, 12);
  const boxSize = ((head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!) >>> 0;
  const compatible: string[] = [];
  for (let at = 16; at + 4 <= Math.min(boxSize, head.length); at += 4) compatible.push(ascii(at, at + 4));
  const image = (brand: string) => (AVIF_BRANDS.has(brand) ? "image/avif" : HEIC_BRANDS.has(brand) ? "image/heic" : null);
  // The major brand says what the file is; the compatible ones only what may read it.
  const majorImage = image(major);
  if (majorImage) {
    // "mif1" is HEIF's generic brand: the compatible list says whether the pictures are AV1.
    const mime = major === "mif1" && compatible.some((b) => AVIF_BRANDS.has(b)) ? "image/avif" : majorImage;
    return { kind: "photo", mime };
  }
  if (AUDIO_BRANDS.has(major)) return { kind: "audio", mime: "audio/mp4" };
  if (major === "qt  ") return { kind: "video", mime: "video/quicktime" };
  if (major.startsWith("3g")) return { kind: "video", mime: "video/3gpp" };
  // Anything else in an ISO box is taken as a video: whether it has a picture is for processing to find.
  return { kind: "video", mime: "video/mp4" };
}

/**
 * Why a file whose first bytes are `head` is refused, or null when it may go on. `wholeFile`
 * says `head` is the entire file (a file shorter than SIGNATURE_BYTES); otherwise too few bytes
 * to judge (under 16) are let through, for processing to decide.
 */
export function refusalForHead(head: Uint8Array, { wholeFile = false }: { wholeFile?: boolean } = {}): SignatureRefusal | null {
  // Nothing to send and nothing a retry could change: refused at once, never taken for a broken upload.
  if (wholeFile && head.length === 0) return { code: "EMPTY", message: EMPTY_FILE };
  if (!wholeFile && head.length < 16) return null;
  const signature = fileSignature(head);
  if (!signature) return { code: "UNSUPPORTED_TYPE", message: NOT_A_PHOTO_OR_VIDEO };
  if (signature.kind === "audio") return { code: "UNSUPPORTED_TYPE", message: SOUND_FILE };
  return null;
}
