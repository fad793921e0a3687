// A crossfade between the tail of one segment and the head of the next (docs/rendering.md). ffmpeg
// 4.1 has no xfade, so the incoming picture is laid over the outgoing one with a rising alpha,
// which also runs the same on every later ffmpeg.

import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { runFfmpeg } from "~/media/run.server";
import { slotThreads } from "../slots.server";
import { videoEncodingArgs } from "./encoding";
import type { PieceContext } from "./segment.server";
import { expectFrames } from "./verify.server";

export type TransitionContext = Pick<PieceContext, "profile" | "workDir" | "signal" | "onFrames">;

/**
 * The arguments of a crossfade over `frames` frames (pure). Frame n shows the incoming picture
 * at (n + 1) / (frames + 1): neither end repeats a frame its neighbouring body already shows.
 */
export function transitionArgs(
  tailFile: string,
  headFile: string,
  frames: number,
  output: string,
  ctx: Pick<PieceContext, "profile">,
  threads: number,
) {
  const { fps } = ctx.profile;
  const graph = [
    `[0:v]settb=1/${fps},setpts=N[from]`,
    // A cloned first frame lets fade's k / n ramp start at 1 / (frames + 1); it is cut off again.
    `[1:v]settb=1/${fps},setpts=N,format=yuva420p,tpad=start=1:start_mode=clone,fade=t=in:s=0:n=${frames + 1}:alpha=1,trim=start_frame=1,setpts=N[to]`,
    `[from][to]overlay=0:0:format=yuv420:shortest=1,trim=end_frame=${frames},setpts=N,format=yuv420p[out]`,
  ].join(";");
  return [
    "-hide_banner",
    "-v",
    "error",
    "-y",
    // The decoders and the encoder have the cores a render slot has, as a scene's do (slots.server.ts).
    "-threads",
    String(threads),
    "-i",
    tailFile,
    "-threads",
    String(threads),
    "-i",
    headFile,
    "-filter_complex",
    graph,
    "-map",
    "[out]",
    ...videoEncodingArgs(ctx.profile, threads),
    output,
  ];
}

export async function renderTransition(tailFile: string, headFile: string, frames: number, ctx: TransitionContext): Promise<string> {
  await mkdir(ctx.workDir, { recursive: true });
  const output = path.join(ctx.workDir, "transition.mp4");
  const { onFrames } = ctx;
  try {
    await runFfmpeg(transitionArgs(tailFile, headFile, frames, output, ctx, slotThreads()), {
      signal: ctx.signal,
      onProgress: onFrames && ((p) => onFrames(p.done ? frames : Math.min(frames, p.frame ?? 0))),
    });
    await expectFrames(output, frames, ctx.signal);
  } catch (error) {
    await rm(output, { force: true });
    throw error;
  }
  return output;
}
