// The last step of a render (docs/rendering.md): bodies and transitions, all in the same encoding,
// joined without re-encoding by the concat demuxer, with the soundtrack muxed in and the moov
// atom first so playback starts before the whole file has arrived.

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { grabFrame } from "~/media/images.server";
import { probeMedia } from "~/media/probe.server";
import { runFfmpeg } from "~/media/run.server";
import type { PieceContext } from "./segment.server";

export type JoinContext = Pick<PieceContext, "workDir" | "signal" | "onFrames"> & {
  /** The plan's duration: the output is cut there, so the soundtrack's last AAC frame never outlasts the picture. */
  durationSeconds: number;
};

/** A concat demuxer `file` line, its path quoted the way the demuxer reads it. */
export const concatFileLine = (file: string) => `file '${path.resolve(file).replace(/'/g, "'\\''")}'`;

/** A concat demuxer list of whole files. */
export const concatList = (files: readonly string[]) => files.map(concatFileLine).join("\n") + "\n";

export function joinArgs(listFile: string, soundtrack: string, output: string, durationSeconds: number) {
  return [
    "-hide_banner",
    "-v",
    "error",
    "-y",
    "-f",
    "concat",
    "-safe",
    "0",
    "-i",
    listFile,
    "-i",
    soundtrack,
    "-map",
    "0:v:0",
    "-map",
    "1:a:0",
    "-c",
    "copy",
    "-t",
    durationSeconds.toFixed(6),
    "-map_metadata",
    "-1",
    "-movflags",
    "+faststart",
    "-f",
    "mp4",
    output,
  ];
}

/** Joins the video pieces, in timeline order (body 0, transition 0, body 1, …), with the soundtrack. */
export async function joinPieces(videoFiles: readonly string[], soundtrack: string, output: string, ctx: JoinContext): Promise<string> {
  if (videoFiles.length === 0) throw new RangeError("Nothing to join");
  await mkdir(ctx.workDir, { recursive: true });
  const listFile = path.join(ctx.workDir, "pieces.txt");
  await writeFile(listFile, concatList(videoFiles));
  const { onFrames } = ctx;
  try {
    await runFfmpeg(joinArgs(listFile, soundtrack, output, ctx.durationSeconds), {
      signal: ctx.signal,
      onProgress: onFrames && ((p) => p.frame !== null && onFrames(p.frame)),
    });
  } catch (error) {
    await rm(output, { force: true });
    throw error;
  } finally {
    await rm(listFile, { force: true });
  }
  return output;
}

/** A JPEG of the frame at `atSeconds` (clamped to the video), for the published version's poster. */
export async function makePoster(videoFile: string, atSeconds: number, output: string, { signal }: { signal?: AbortSignal } = {}) {
  const scratch = await mkdtemp(path.join(tmpdir(), "chorus-render-poster-"));
  try {
    const frame = path.join(scratch, "frame.png");
    // Seeking past the last frame would write nothing: stay a little before the end.
    const duration = (await probeMedia(videoFile, { signal })).duration ?? 0;
    const at = Math.max(0, Math.min(atSeconds, duration - 0.1));
    await grabFrame(videoFile, at, frame, { signal });
    const info = await sharp(frame).jpeg({ quality: 88, mozjpeg: true }).toFile(output);
    return { path: output, width: info.width, height: info.height };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
