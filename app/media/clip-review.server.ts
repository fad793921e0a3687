import { createReadStream } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { type ClipReview, reviewClip } from "~/domain/clip-review";
import { clipSignals, FrameSignals, PROBE_AUDIO_RATE, probeFrameSize, soundLevels } from "./clip-signals";
import { type NormaliseOptions, RENDITION_DEFAULTS, normaliseVideo } from "./normalise-video.server";
import { type MediaProbe, UnreadableMediaError, probeMedia } from "./probe.server";
import { type Focus, clipFocus } from "./subject-focus.server";

export type PreparedClip = {
  /** The rendition's probe. */
  rendition: MediaProbe;
  /** The trim it gets by itself and what to say about it (docs/decisions/053). */
  review: ClipReview;
  /** Where a portrait clip's subject was found (its rendition is framed on it); null for the others. */
  focus: Focus | null;
};

const NOTHING_TO_SAY: ClipReview = { trimStart: 0, trimEnd: null, advice: [] };

/**
 * Makes a clip's rendition (normalise-video.server.ts) and, from the same decode, its review: the
 * dead air at its ends as its default trim, and what may disappoint about it. A portrait clip's
 * subject is looked for first, on three key frames, and its rendition framed on it. An animated
 * picture (GIF, WebP) is nobody's recording: it is made as it was, with nothing trimmed or said.
 */
export async function prepareClip(
  input: string,
  output: string,
  { workDir, ...options }: Omit<NormaliseOptions, "source" | "focusY" | "probe"> & { workDir: string },
): Promise<PreparedClip> {
  const source = await probeMedia(input, { signal: options.signal });
  const duration = source.video?.duration ?? source.duration;
  if (source.kind !== "video" || !source.video || !duration) throw new UnreadableMediaError("not a video with a duration");
  const aspect = source.video.displayWidth / source.video.displayHeight;
  if (isAnimatedPicture(source)) {
    return { rendition: await normaliseVideo(input, output, { ...options, source }), review: NOTHING_TO_SAY, focus: null };
  }
  const focus = aspect < 1 ? ((await clipFocus(input, source, { signal: options.signal })) ?? { x: 0.5, y: 0.5 }) : null;
  const probe = {
    frames: path.join(workDir, "probe-frames.gray"),
    frameSize: probeFrameSize(aspect),
    sound: source.audio ? path.join(workDir, "probe-sound.pcm") : null,
  };
  try {
    const rendition = await normaliseVideo(input, output, { ...options, source, focusY: focus?.y, probe });
    const fps = options.fps ?? RENDITION_DEFAULTS.fps;
    const frames = new FrameSignals(probe.frameSize.width, probe.frameSize.height);
    for await (const chunk of createReadStream(probe.frames)) frames.push(chunk as Buffer);
    const sound = probe.sound ? soundLevels(await readFile(probe.sound), PROBE_AUDIO_RATE, fps, frames.frames) : null;
    const keptDuration = rendition.video?.duration ?? rendition.duration ?? duration;
    return { rendition, review: reviewClip(clipSignals(frames, sound, fps), keptDuration), focus };
  } finally {
    await Promise.all([probe.frames, probe.sound].map((file) => file && rm(file, { force: true })));
  }
}

const isAnimatedPicture = (source: MediaProbe) => source.formatNames.some((name) => name === "gif" || name === "webp" || name === "apng");
