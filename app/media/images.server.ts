import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp, { type Sharp } from "sharp";
import { type Frame, fitInside } from "./blur-fill-graph";
import { RENDITION_DEFAULTS } from "./normalise-video.server";
import { type PhotoEdits, assertCropInside, photoEditsSchema } from "./photo-edits";
import { probeMedia } from "./probe.server";
import { runFfmpeg } from "./run.server";
import { type Focus, attentionFocus } from "./subject-focus.server";
import { DEFAULT_UPLOAD_LIMITS } from "./validate.server";

export { InvalidPhotoEditError, type PhotoEdits, photoEditsSchema } from "./photo-edits";

export type WrittenImage = { path: string; width: number; height: number; format: string };

// Every decode is capped, so a file that slipped past validation still cannot flood memory.
const open = (input: string | Buffer) => sharp(input, { limitInputPixels: DEFAULT_UPLOAD_LIMITS.maxPhotoPixels });

/**
 * What shows through a photo's transparent parts: renditions are JPEG, which has no alpha, and
 * the thumbnails beside them are flattened onto the same white. Black (libvips' default) made a
 * logo or a sticker with a soft edge look burnt.
 */
export const PHOTO_BACKDROP = "#ffffff";

/** A photo's rendition, and where its subject is in it (shares of the frame; null when it could not tell). */
export type PhotoRendition = WrittenImage & { focus: Focus | null };

/**
 * A photo as a frame of the montage: upright, fitted inside the frame on a blurred, scaled-up copy
 * of itself (the same look as clips, see blur-fill-graph.ts), JPEG quality 90. Transparent parts
 * show white (PHOTO_BACKDROP), in the photo and in its blurred copy. Its subject is looked for in
 * the photo itself, not the fill, and placed in the frame (docs/decisions/053).
 */
export async function photoRendition(input: string, output: string, frame: Frame = RENDITION_DEFAULTS): Promise<PhotoRendition> {
  const { width = 1, height = 1 } = await open(input)
    .autoOrient()
    .metadata()
    .then((m) => m.autoOrient);
  const fitted = fitInside(width / height, frame);
  // Blurred at 1/8 size then enlarged: a soft fill for a fraction of a full-size blur's work.
  const small = { width: Math.max(2, Math.round(frame.width / 8)), height: Math.max(2, Math.round(frame.height / 8)) };
  const blurred = await open(input)
    .autoOrient()
    .resize(small.width, small.height, { fit: "cover" })
    .flatten({ background: PHOTO_BACKDROP })
    .blur(Math.max(0.3, Math.min(small.width, small.height) / 10))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const background = await sharp(blurred.data, { raw: blurred.info }).resize(frame.width, frame.height).raw().toBuffer();
  const picture = await open(input)
    .autoOrient()
    .resize(fitted.width, fitted.height, { fit: "fill" })
    .flatten({ background: PHOTO_BACKDROP })
    .png()
    .toBuffer();
  const info = await sharp(background, { raw: { width: frame.width, height: frame.height, channels: blurred.info.channels } })
    .composite([{ input: picture, gravity: "centre" }])
    .jpeg({ quality: 90, mozjpeg: true })
    .toFile(output);
  // Where sharp's "centre" gravity put the picture: half the room left on each side, rounded down.
  const left = Math.floor((frame.width - fitted.width) / 2);
  const top = Math.floor((frame.height - fitted.height) / 2);
  const inPicture = await attentionFocus(picture);
  const focus = inPicture && {
    x: (left + inPicture.x * fitted.width) / frame.width,
    y: (top + inPicture.y * fitted.height) / frame.height,
  };
  return { path: output, width: info.width, height: info.height, format: info.format, focus };
}

export const THUMBNAIL_WIDTHS = [320, 640] as const;
// WebP for browsers, JPEG for e-mails and link previews.
const THUMBNAIL_ENCODERS = [
  ["webp", (image: Sharp) => image.webp({ quality: 80 })],
  ["jpg", (image: Sharp) => image.jpeg({ quality: 82, mozjpeg: true })],
] as const;

/** Poster-sized copies, WebP and JPEG at each width, never enlarged: `<baseName>-<width>.<ext>`. */
export async function thumbnails(
  input: string,
  dir: string,
  { baseName = "thumb", widths = THUMBNAIL_WIDTHS }: { baseName?: string; widths?: readonly number[] } = {},
): Promise<WrittenImage[]> {
  const upright = open(input).autoOrient();
  const written: WrittenImage[] = [];
  for (const width of widths) {
    const resized = upright.clone().resize({ width, withoutEnlargement: true }).flatten({ background: PHOTO_BACKDROP });
    for (const [extension, encode] of THUMBNAIL_ENCODERS) {
      const file = path.join(dir, `${baseName}-${width}.${extension}`);
      const info = await encode(resized.clone()).toFile(file);
      written.push({ path: file, width: info.width, height: info.height, format: info.format });
    }
  }
  return written;
}

/** Writes the frame of `videoFile` at `atSeconds` to `frameFile` as a PNG (posters of clips and renders). */
export async function grabFrame(videoFile: string, atSeconds: number, frameFile: string, { signal }: { signal?: AbortSignal } = {}) {
  await runFfmpeg(
    [
      "-hide_banner",
      "-v",
      "error",
      "-y",
      "-ss",
      atSeconds.toFixed(3),
      "-i",
      videoFile,
      "-frames:v",
      "1",
      "-f",
      "image2",
      "-update",
      "1",
      "-c:v",
      "png",
      frameFile,
    ],
    { signal, timeoutMs: 120_000 },
  );
}

/**
 * A clip's poster: the frame at 1 s (or 10% in, for clips under 10 s) into what the video shows of
 * it (`kept`: its default trim, so never the black before a thumb left the lens), upright, as a
 * full-size JPEG at `output`, plus its thumbnails beside it (`<name>-320.webp`…).
 */
export async function videoPoster(
  videoFile: string,
  output: string,
  { signal, kept }: { signal?: AbortSignal; kept?: { trimStart: number; trimEnd: number | null } } = {},
): Promise<{ poster: WrittenImage; thumbnails: WrittenImage[] }> {
  const { duration } = await probeMedia(videoFile, { signal });
  const start = kept?.trimStart ?? 0;
  const end = kept?.trimEnd ?? duration ?? 0;
  const at = start + Math.min(1, Math.max(0, end - start) * 0.1);
  const scratch = await mkdtemp(path.join(tmpdir(), "chorus-poster-"));
  try {
    const frame = path.join(scratch, "frame.png");
    await grabFrame(videoFile, at, frame, { signal });
    const info = await open(frame).jpeg({ quality: 90, mozjpeg: true }).toFile(output);
    const poster = { path: output, width: info.width, height: info.height, format: info.format };
    const baseName = path.basename(output, path.extname(output));
    return { poster, thumbnails: await thumbnails(frame, path.dirname(output), { baseName }) };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const MAX_UPSCALE = 4;

/** Enlarges a small photo by `factor` (Lanczos3, then a light sharpen to restore edges). */
export async function upscalePhoto(input: string, output: string, factor: number): Promise<WrittenImage> {
  if (!(factor > 1 && factor <= MAX_UPSCALE)) throw new RangeError(`The upscale factor must be above 1 and at most ${MAX_UPSCALE}.`);
  const { width = 0, height = 0 } = await open(input)
    .metadata()
    .then((m) => m.autoOrient);
  const target = { width: Math.round(width * factor), height: Math.round(height * factor) };
  if (target.width * target.height > DEFAULT_UPLOAD_LIMITS.maxPhotoPixels) {
    throw new RangeError("The upscaled photo would be larger than we can store.");
  }
  const info = await open(input)
    .autoOrient()
    .resize(target.width, target.height, { kernel: "lanczos3", fit: "fill" })
    .sharpen({ sigma: 0.6, m1: 0.5, m2: 1.5 })
    .toFile(output);
  return { path: output, width: info.width, height: info.height, format: info.format };
}

/** Applies a contributor's edits in the order documented on photoEditsSchema; the format follows `output`'s extension. */
export async function editPhoto(input: string, output: string, edits: PhotoEdits): Promise<WrittenImage> {
  const { crop, rotate = 0, flipH = false, flipV = false, brightness = 1, contrast = 1 } = photoEditsSchema.parse(edits);
  // Step 1–2 in one pass: auto-orient, then crop in the upright photo's pixels.
  const upright = await open(input)
    .metadata()
    .then((m) => m.autoOrient);
  if (crop) assertCropInside(crop, upright);
  let pipeline = open(input).autoOrient();
  if (crop) pipeline = pipeline.extract(crop);
  const cropped = await pipeline.raw().toBuffer({ resolveWithObject: true });
  // Steps 3–5. sharp mirrors *before* it rotates, so a mirror meant for the turned photo swaps
  // axes when the turn is a quarter: left↔right after 90° is top↔bottom before it.
  const quarterTurn = rotate === 90 || rotate === 270;
  let edited = sharp(cropped.data, { raw: cropped.info })
    .flip(quarterTurn ? flipH : flipV)
    .flop(quarterTurn ? flipV : flipH)
    .rotate(rotate);
  // contrast c around mid-grey, then brightness b: out = b·(c·(x − 128) + 128); alpha is left alone.
  if (brightness !== 1 || contrast !== 1) edited = edited.linear(brightness * contrast, brightness * 128 * (1 - contrast));
  const info = await edited.toFile(output);
  return { path: output, width: info.width, height: info.height, format: info.format };
}

/**
 * A photo to print (the guestbook keepsake): upright, at most `longest` pixels on its longer side,
 * transparency on white, JPEG quality 85, which PDF files embed as it is.
 */
export async function printablePhoto(input: Buffer, longest = 1600): Promise<Buffer> {
  return open(input)
    .autoOrient()
    .resize({ width: longest, height: longest, fit: "inside", withoutEnlargement: true })
    .flatten({ background: PHOTO_BACKDROP })
    .jpeg({ quality: 85 })
    .toBuffer();
}
