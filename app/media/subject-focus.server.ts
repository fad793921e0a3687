import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { MediaProbe } from "./probe.server";
import { runFfmpeg } from "./run.server";

// Where a picture's subject is (docs/decisions/053): faces by their skin tones, else what is most
// salient, by sharp's attention strategy (libvips' smartcrop: luminance frequency, saturation and
// skin). Nothing to download, the same on every machine. A photo's camera move ends on it; a
// portrait clip sits in its fill so that it stays in the picture.

/** A point of a picture as shares of its width and height: (0.5, 0.5) is the centre. */
export type Focus = { x: number; y: number };

/** Attention is looked for on a copy this size on its longer side: faces are still many pixels. */
const LOOK_SIZE = 480;

/** Where the subject of an image (a file or its encoded bytes) is; null when the image is too small to tell. */
export async function attentionFocus(image: string | Buffer): Promise<Focus | null> {
  const small = await sharp(image).autoOrient().resize(LOOK_SIZE, LOOK_SIZE, { fit: "inside", withoutEnlargement: true }).toBuffer();
  const { width = 0, height = 0 } = await sharp(small).metadata();
  if (width < 8 || height < 8) return null;
  // Cropped to a sliver of its own height, the copy is not scaled, and libvips reports the centre of
  // attention it chose in the copy's own pixels, across and down.
  const { info } = await sharp(small)
    .resize(2, height, { fit: "cover", position: sharp.strategy.attention })
    .toBuffer({ resolveWithObject: true });
  if (info.attentionX === undefined || info.attentionY === undefined) return null;
  return { x: clampShare(info.attentionX / width), y: clampShare(info.attentionY / height) };
}

const clampShare = (value: number) => Math.min(1, Math.max(0, value));

/** The most key frames of a clip read: a minute or more of a phone's clip, a few seconds of decoding. */
const MOST_KEY_FRAMES = 48;
/** Of the key frames read, the subject is looked for in those a quarter, half and three quarters in. */
const LOOKED_AT = [0.25, 0.5, 0.75] as const;

/**
 * Where a clip's subject is: looked for in three of its key frames, the median of their points,
 * across and down. Only key frames are decoded (phones write one every second or two), so this
 * costs a few percent of the decode that makes the rendition, even for 4K HEVC. Null when none
 * could be read: framing is a nicety, and such a clip is framed on its centre.
 */
export async function clipFocus(input: string, source: MediaProbe, { signal }: { signal?: AbortSignal } = {}) {
  if (!source.video) return null;
  const scratch = await mkdtemp(path.join(tmpdir(), "chorus-focus-"));
  try {
    await runFfmpeg(
      [
        ...["-hide_banner", "-v", "error", "-y", "-skip_frame", "nokey", "-i", input, "-map", `0:${source.video.index}`],
        ...["-vf", `scale=${LOOK_SIZE}:${LOOK_SIZE}:force_original_aspect_ratio=decrease`, "-vsync", "passthrough"],
        ...["-frames:v", String(MOST_KEY_FRAMES), "-f", "image2", path.join(scratch, "key-%02d.png")],
      ],
      { signal, timeoutMs: 120_000 },
    );
    const frames = (await readdir(scratch)).filter((name) => name.startsWith("key-")).sort();
    const chosen = [...new Set(LOOKED_AT.map((share) => frames[Math.min(frames.length - 1, Math.floor(share * frames.length))]!))];
    const points: Focus[] = [];
    for (const name of frames.length ? chosen : []) {
      const point = await attentionFocus(path.join(scratch, name)).catch(() => null);
      if (point) points.push(point);
    }
    if (!points.length) return null;
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    return { x: median(points.map((p) => p.x)), y: median(points.map((p) => p.y)) };
  } catch (error) {
    if (signal?.aborted) throw error;
    return null;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
