import { open } from "node:fs/promises";
import { SIGNATURE_BYTES, fileSignature } from "./file-signature";

/** The first bytes of a file on disk (SIGNATURE_BYTES, or all of a shorter file). */
export async function readFileHead(file: string): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(SIGNATURE_BYTES), 0, SIGNATURE_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Whether a file starts like an audio or video container. Used only to tell a damaged video
 * (UNREADABLE) from a file that never was one (UNSUPPORTED_TYPE) once ffprobe has given up on it.
 */
export async function looksLikeMediaContainer(file: string): Promise<boolean> {
  const kind = fileSignature(await readFileHead(file))?.kind;
  return kind === "video" || kind === "audio";
}
