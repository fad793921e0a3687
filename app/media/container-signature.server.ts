import { open } from "node:fs/promises";

// Magic numbers of audio/video containers. Used only to tell a damaged video (UNREADABLE) from a
// file that never was one (UNSUPPORTED_TYPE) once ffprobe has given up on it.
const ISO_BMFF_BOXES = new Set(["ftyp", "moov", "mdat", "free", "skip", "wide", "pnot"]);

export async function looksLikeMediaContainer(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
    return hasMediaSignature(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

export function hasMediaSignature(head: Buffer): boolean {
  if (head.length < 4) return false;
  const ascii = (from: number, to: number) => head.subarray(from, to).toString("latin1");
  return (
    (head.length >= 8 && ISO_BMFF_BOXES.has(ascii(4, 8))) || // MP4, MOV, M4V, 3GP
    head.readUInt32BE(0) === 0x1a45dfa3 || // EBML: Matroska, WebM
    (ascii(0, 4) === "RIFF" && ["AVI ", "WAVE"].includes(ascii(8, 12))) ||
    ascii(0, 4) === "OggS" ||
    ascii(0, 3) === "FLV" ||
    ascii(0, 3) === "ID3"
  );
}
