import { type FileHandle, open } from "node:fs/promises";
import { runFfprobe } from "~/media/run.server";

/** Frames in a file's first video stream, counted from its packets (fast: nothing is decoded). */
export async function countVideoFrames(file: string, signal?: AbortSignal): Promise<number> {
  const { stdout } = await runFfprobe(
    ["-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", file],
    { signal },
  );
  return Number.parseInt(stdout.trim(), 10);
}

export class PieceLengthError extends Error {
  override name = "PieceLengthError";
}

/**
 * Pieces are joined by frame count: one frame too many or too few shifts everything after it.
 * Every piece is an MP4 or MOV we wrote, so its index says how many frames it holds; reading that takes
 * a few small reads, where an ffprobe per piece (three per scene) took ~0.1 s each.
 */
export async function expectFrames(file: string, expected: number, signal?: AbortSignal) {
  signal?.throwIfAborted();
  const frames = (await mp4VideoSampleCount(file)) ?? (await countVideoFrames(file, signal));
  if (frames !== expected) throw new PieceLengthError(`${file} has ${frames} frames, not ${expected}`);
}

const HEADER = 8;
/** A piece's index is a few kilobytes per minute; anything far larger is not one of ours. */
const MAX_MOOV_BYTES = 64 * 1024 * 1024;

/**
 * The sample count of the first video track of an MP4 or MOV (its `stsz` box), or null when the file is
 * not an MP4 with a plain (unfragmented) index.
 */
export async function mp4VideoSampleCount(file: string): Promise<number | null> {
  const table = await videoSampleTable(file, "stsz");
  // stsz: version and flags (4), sample_size (4), sample_count (4).
  return table && table.length >= 12 ? table.readUInt32BE(8) : null;
}

/**
 * The frames (from 0) of an MP4's first video track that are key frames, from its index (its `stss`
 * box, nothing decoded); null when it has no plain index or marks none (every frame is one then).
 * In a closed GOP, a key frame's place among the samples is its place among the frames shown.
 */
export async function mp4VideoKeyFrames(file: string): Promise<number[] | null> {
  const table = await videoSampleTable(file, "stss");
  // stss: version and flags (4), entry_count (4), then each sample's number, from 1.
  if (!table || table.length < 8) return null;
  const count = table.readUInt32BE(4);
  if (table.length < 8 + count * 4) return null;
  return Array.from({ length: count }, (_, i) => table.readUInt32BE(8 + i * 4) - 1);
}

/** A box of the sample table (`stbl`) of an MP4's first video track, or null. */
async function videoSampleTable(file: string, type: "stsz" | "stss"): Promise<Buffer | null> {
  const handle = await open(file, "r");
  try {
    const moov = await readTopLevelBox(handle, "moov");
    if (!moov) return null;
    for (const trak of children(moov, "trak")) {
      const mdia = children(trak, "mdia")[0];
      const hdlr = mdia && children(mdia, "hdlr")[0];
      // hdlr: version and flags (4), pre_defined (4), handler_type (4).
      if (!hdlr || hdlr.length < 12 || hdlr.toString("latin1", 8, 12) !== "vide") continue;
      return (
        children(mdia, "minf")
          .flatMap((minf) => children(minf, "stbl"))
          .flatMap((stbl) => children(stbl, type))[0] ?? null
      );
    }
    return null;
  } finally {
    await handle.close();
  }
}

/** A box's header at `offset` of `bytes` (the box may run past them), or null when it is not one. */
function boxAt(bytes: Buffer, offset: number, room: number) {
  if (bytes.length - offset < HEADER) return null;
  const small = bytes.readUInt32BE(offset);
  const headerLength = small === 1 ? 16 : HEADER;
  if (small === 1 && bytes.length - offset < 16) return null;
  // 1: a 64-bit length follows; 0: the box runs to the end of what holds it.
  const length = small === 1 ? Number(bytes.readBigUInt64BE(offset + 8)) : small === 0 ? room : small;
  if (length < headerLength || length > room) return null;
  return { type: bytes.toString("latin1", offset + 4, offset + 8), headerLength, length };
}

/** The payload of the first top-level box of `type`, walking the file's box headers. */
async function readTopLevelBox(handle: FileHandle, type: string): Promise<Buffer | null> {
  const { size } = await handle.stat();
  const header = Buffer.alloc(16);
  for (let offset = 0; offset + HEADER <= size;) {
    const { bytesRead } = await handle.read(header, 0, 16, offset);
    const box = boxAt(header.subarray(0, bytesRead), 0, size - offset);
    if (!box) return null;
    if (box.type === type) {
      if (box.length - box.headerLength > MAX_MOOV_BYTES) return null;
      const payload = Buffer.alloc(box.length - box.headerLength);
      await handle.read(payload, 0, payload.length, offset + box.headerLength);
      return payload;
    }
    offset += box.length;
  }
  return null;
}

/** The payloads of the boxes of `type` directly inside a container box's payload. */
function children(payload: Buffer, type: string): Buffer[] {
  const found: Buffer[] = [];
  for (let offset = 0; ;) {
    const box = boxAt(payload, offset, payload.length - offset);
    if (!box) return found;
    if (box.type === type) found.push(payload.subarray(offset + box.headerLength, offset + box.length));
    offset += box.length;
  }
}
