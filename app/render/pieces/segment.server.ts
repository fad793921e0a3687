// Renders one plan segment into its pieces with a single ffmpeg run (docs/rendering.md): the body in
// the shared encoding, lossless head and tail snippets for the crossfades, and its audio as WAV.
// Inputs are local files: fetching renditions and caching pieces by key is the caller's job.

import { access, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { probeMedia } from "~/media/probe.server";
import { type FfmpegProgress, runFfmpeg } from "~/media/run.server";
import { type OutputProfile, type Segment, bodyFrames } from "../plan";
import { ThemeAssetError, resolveThemeAsset } from "./assets.server";
import { type PlacedImage, renderTextBox, renderTitleCard } from "./cards.server";
import { renderCollage } from "./collage.server";
import { type SegmentInputs, segmentArgs } from "./segment-graph";
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

export interface SegmentFiles {
  body: string;
  head: string | null;
  tail: string | null;
  audio: string;
  /** Frames of the whole segment: head, body and tail. */
  frames: number;
}

export async function renderSegmentPieces(segment: Segment, ctx: PieceContext): Promise<SegmentFiles> {
  const { workDir, profile } = ctx;
  await mkdir(workDir, { recursive: true });
  const files = {
    body: path.join(workDir, "body.mp4"),
    head: segment.headFrames > 0 ? path.join(workDir, "head.mov") : null,
    tail: segment.tailFrames > 0 ? path.join(workDir, "tail.mov") : null,
    audio: path.join(workDir, "audio.wav"),
  };
  const scratch = { box: path.join(workDir, "text-box.png"), still: path.join(workDir, "still.jpg") };
  try {
    const inputs = await prepareInputs(segment, ctx, scratch);
    ctx.signal?.throwIfAborted();
    await runFfmpeg(segmentArgs(segment, inputs, files, profile), {
      signal: ctx.signal,
      onProgress: ctx.onFrames && progressReporter(segment, ctx.onFrames),
    });
    await expectFrames(files.body, bodyFrames(segment), ctx.signal);
    if (files.head) await expectFrames(files.head, segment.headFrames, ctx.signal);
    if (files.tail) await expectFrames(files.tail, segment.tailFrames, ctx.signal);
  } catch (error) {
    await Promise.all(Object.values(files).map((file) => file && rm(file, { force: true })));
    throw error;
  } finally {
    await Promise.all(Object.values(scratch).map((file) => rm(file, { force: true })));
  }
  return { ...files, frames: segment.frames };
}

async function prepareInputs(segment: Segment, ctx: PieceContext, scratch: { box: string; still: string }): Promise<SegmentInputs> {
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
    segment.kind !== "title" && segment.textBox ? renderTextBox(segment.textBox, segment.style, frame, fontFile, scratch.box) : null;
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

/** ffmpeg counts the body's frames (the first output); the head, written first, comes before them. */
function progressReporter(segment: Segment, onFrames: (frames: number) => void) {
  let reported = 0;
  return (progress: FfmpegProgress) => {
    const body = progress.frame ?? 0;
    const written = progress.done ? segment.frames : Math.min(segment.frames, body > 0 ? body + segment.headFrames : 0);
    if (written > reported || progress.done) onFrames((reported = Math.max(reported, written)));
  };
}
