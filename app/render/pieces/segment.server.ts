// Renders one plan segment into its pieces with a single ffmpeg run (docs/rendering.md,
// docs/decisions/038): its lossless head and tail for the crossfades, its sound as WAV, and its
// parts (captioned, plain, a title card's) in the shared encoding. Asked for some parts only, the
// run decodes only their frames. Inputs are local files: fetching renditions and caching pieces by
// key is the caller's job.

import { access, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { probeMedia } from "~/media/probe.server";
import { type FfmpegProgress, runFfmpeg } from "~/media/run.server";
import type { OutputProfile, ScenePart, Segment } from "../plan";
import { slotThreads } from "../slots.server";
import { ThemeAssetError, resolveThemeAsset } from "./assets.server";
import { type PlacedImage, renderTextBox, renderTitleCard } from "./cards.server";
import { renderCollage } from "./collage.server";
import { type SegmentInputs, type SegmentOutputs, decodedRange, progressOutput, segmentArgs } from "./segment-graph";
import { expectFrames } from "./verify.server";

export interface PieceContext {
  profile: OutputProfile;
  /** A folder of this piece's own: its files are written there under fixed names. */
  workDir: string;
  /** The local path of a rendition, by its storage key. */
  sourcePath: (storageKey: string) => Promise<string>;
  /** The local path of a theme asset URL; public/ of the app unless given. */
  assetPath?: (url: string) => string;
  signal?: AbortSignal;
  /** Frames of this piece written so far (reaches the piece's frame count when it is done). */
  onFrames?: (framesWritten: number) => void;
}

/** What of a segment to make: its own piece (head, tail and sound), and which of its parts. */
export interface SegmentWanted {
  scene: boolean;
  parts: readonly ScenePart[];
}

export interface SegmentFiles {
  /** Null when not asked for, or when the segment has none. */
  head: string | null;
  tail: string | null;
  audio: string | null;
  /** Each part written, by its key. */
  parts: Record<string, string>;
  /** Frames of video written: the run's share of the segment. */
  frames: number;
}

/** The whole segment: what a first render, with nothing stored, makes of it in one run. */
export const everything = (segment: Segment): SegmentWanted => ({ scene: true, parts: segment.parts });

export async function renderSegmentPieces(
  segment: Segment,
  ctx: PieceContext,
  wanted: SegmentWanted = everything(segment),
): Promise<SegmentFiles> {
  const { workDir, profile } = ctx;
  await mkdir(workDir, { recursive: true });
  const outputs: SegmentOutputs = {
    head: wanted.scene && segment.headFrames > 0 ? path.join(workDir, "head.mov") : null,
    tail: wanted.scene && segment.tailFrames > 0 ? path.join(workDir, "tail.mov") : null,
    audio: wanted.scene ? path.join(workDir, "audio.wav") : null,
    parts: wanted.parts.map((part, i) => ({ part, file: path.join(workDir, `part-${i}.mp4`) })),
    partsPattern: path.join(workDir, "part-%d.mp4"),
  };
  const all = [outputs.head, outputs.tail, outputs.audio, ...outputs.parts.map((p) => p.file)];
  const scratch = { box: path.join(workDir, "text-box.png"), still: path.join(workDir, "still.jpg") };
  const { first, last } = decodedRange(segment, outputs);
  try {
    const captioned = wanted.parts.some((p) => p.kind === "caption");
    const inputs = await prepareInputs(segment, ctx, scratch, captioned);
    ctx.signal?.throwIfAborted();
    await runFfmpeg(segmentArgs(segment, inputs, outputs, profile, slotThreads()), {
      signal: ctx.signal,
      onProgress: ctx.onFrames && progressReporter(progressOutput(segment, outputs), first, last - first, ctx.onFrames),
    });
    if (outputs.head) await expectFrames(outputs.head, segment.headFrames, ctx.signal);
    if (outputs.tail) await expectFrames(outputs.tail, segment.tailFrames, ctx.signal);
    for (const { part, file } of outputs.parts) await expectFrames(file, part.end - part.start, ctx.signal);
  } catch (error) {
    await Promise.all(all.map((file) => file && rm(file, { force: true })));
    throw error;
  } finally {
    await Promise.all(Object.values(scratch).map((file) => rm(file, { force: true })));
  }
  return {
    head: outputs.head,
    tail: outputs.tail,
    audio: outputs.audio,
    parts: Object.fromEntries(outputs.parts.map(({ part, file }) => [part.key, file])),
    frames: last - first,
  };
}

async function prepareInputs(
  segment: Segment,
  ctx: PieceContext,
  scratch: { box: string; still: string },
  captioned: boolean,
): Promise<SegmentInputs> {
  const frame = { width: ctx.profile.width, height: ctx.profile.height };
  const asset = async (url: string) => {
    const file = (ctx.assetPath ?? resolveThemeAsset)(url);
    await access(file).catch(() => {
      throw new ThemeAssetError(`Theme asset not found: ${url}`);
    });
    return file;
  };
  const fontFile = segment.style.fontUrl ? await asset(segment.style.fontUrl) : null;
  const textBox = async (): Promise<PlacedImage | null> =>
    captioned && segment.kind !== "title" && segment.textBox
      ? renderTextBox(segment.textBox, segment.style, frame, fontFile, scratch.box)
      : null;
  const still = { inSeconds: 0, sourceFrames: 1, sound: false };

  switch (segment.kind) {
    case "title": {
      const background = segment.backgroundUrl ? await asset(segment.backgroundUrl) : null;
      const card = await renderTitleCard(segment, segment.style, frame, fontFile, background, scratch.still);
      return { ...still, picture: card, textBox: null };
    }
    case "photo":
      return { ...still, picture: await ctx.sourcePath(segment.source), textBox: await textBox() };
    case "collage": {
      const photos = await Promise.all(segment.sources.map((key) => ctx.sourcePath(key)));
      return { ...still, picture: await renderCollage(photos, frame, scratch.still), textBox: await textBox() };
    }
    case "clip": {
      const picture = await ctx.sourcePath(segment.source);
      const probe = await probeMedia(picture, { signal: ctx.signal });
      const duration = probe.video?.duration ?? probe.duration;
      // Never seek past the last frame the rendition really has: the segment would have no picture.
      const lastStart = duration === null ? segment.inSeconds : Math.max(0, duration - 2 / ctx.profile.fps);
      return {
        picture,
        inSeconds: Math.min(segment.inSeconds, lastStart),
        sourceFrames: segment.sourceFrames,
        sound: segment.hasAudio && probe.audio !== null,
        textBox: await textBox(),
      };
    }
  }
}

/** ffmpeg counts the frames of one output (`progressOutput`): where it is says how far the decode is. */
function progressReporter(counted: { start: number } | null, first: number, total: number, onFrames: (frames: number) => void) {
  let reported = 0;
  return (progress: FfmpegProgress) => {
    const frame = progress.frame ?? 0;
    const written = progress.done ? total : counted && frame > 0 ? Math.min(total, counted.start - first + frame) : 0;
    if (written > reported || progress.done) onFrames((reported = Math.max(reported, written)));
  };
}
