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

/** Pieces are joined by frame count: one frame too many or too few shifts everything after it. */
export async function expectFrames(file: string, expected: number, signal?: AbortSignal) {
  const frames = await countVideoFrames(file, signal);
  if (frames !== expected) throw new PieceLengthError(`${file} has ${frames} frames, not ${expected}`);
}
