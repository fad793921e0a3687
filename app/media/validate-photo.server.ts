// Checks of an upload that sharp sees as an image (validate.server.ts decides photo or video):
// its format and size, that its pixels decode, HEIC through its own decoder, and an animated GIF
// handed on as a clip.
import path from "node:path";
import sharp, { type Metadata } from "sharp";
import { ASK_FOR_PHOTO_OR_VIDEO } from "./file-signature";
import { decodeHeicPixels, decodeHeicToFile, needsHeicDecoder } from "./heic.server";
import { type Rotation, UNREADABLE_MEDIA_MESSAGE } from "./probe.server";
import { UploadRejectedError, formatBytes, formatDuration } from "./upload-rejected-error";
import type { Checked, UploadLimits } from "./validated-upload";

const PHOTO_MIME: Record<string, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  tiff: "image/tiff",
  heif: "image/heic",
};

/** null when sharp does not see an image at all: then it may be a video. */
export async function validatePhoto(
  file: string,
  bytes: number,
  limits: UploadLimits,
  workDir?: string,
): Promise<(Checked & { decodedPhoto: string | null }) | null> {
  let metadata: Metadata;
  try {
    metadata = await sharp(file, { limitInputPixels: limits.maxPhotoPixels }).metadata();
  } catch (error) {
    if (/pixel limit/i.test(String(error))) throw await tooManyPixels(file, limits);
    return null;
  }
  const format = metadata.format as string;
  const mime = format === "heif" && metadata.compression === "av1" ? "image/avif" : PHOTO_MIME[format];
  if (!mime) {
    throw new UploadRejectedError("UNSUPPORTED_TYPE", `We can't use ${format.toUpperCase()} files. ${ASK_FOR_PHOTO_OR_VIDEO}`);
  }
  if (bytes > limits.maxPhotoBytes) {
    throw new UploadRejectedError("TOO_LARGE", `This photo is larger than ${formatBytes(limits.maxPhotoBytes)}.`);
  }
  if (needsHeicDecoder(metadata)) return validateHeic(file, bytes, mime, workDir);
  await assertPhotoDecodes(file, limits);
  if (format === "gif" && (metadata.pages ?? 1) > 1) return { ...animatedGif(metadata, bytes, limits), decodedPhoto: null };
  return {
    kind: "photo",
    mime,
    bytes,
    width: metadata.autoOrient?.width ?? metadata.width ?? 0,
    height: metadata.autoOrient?.height ?? metadata.height ?? 0,
    duration: null,
    rotation: ORIENTATION_ROTATION[metadata.orientation ?? 1] ?? 0,
    hasAudio: false,
    codec: format,
    frameRate: null,
    decodedPhoto: null,
  };
}

/**
 * A HEIC photo, decoded whole (sharp cannot: heic.server.ts); the decode is what finds a damaged
 * one. libheif turns the pixels upright as it decodes, so their size is the size shown.
 */
async function validateHeic(file: string, bytes: number, mime: string, workDir?: string) {
  let decoded: { width: number; height: number; path: string | null };
  try {
    if (workDir) {
      const output = await decodeHeicToFile(file, path.join(workDir, "decoded.v"));
      const { width = 0, height = 0 } = await sharp(output).metadata();
      decoded = { width, height, path: output };
    } else {
      decoded = { ...(await decodeHeicPixels(file)).info, path: null };
    }
  } catch (error) {
    throw new UploadRejectedError("UNREADABLE", UNREADABLE_MEDIA_MESSAGE, String(error));
  }
  return {
    kind: "photo" as const,
    mime,
    bytes,
    width: decoded.width,
    height: decoded.height,
    duration: null,
    rotation: 0 as const,
    hasAudio: false,
    codec: "heif",
    frameRate: null,
    decodedPhoto: decoded.path,
  };
}

/**
 * An animated GIF is a short clip, not a photo: it goes through the video path (ffmpeg reads
 * GIFs) and plays in the video as it plays in a browser, once through.
 */
function animatedGif(metadata: Metadata, bytes: number, limits: UploadLimits): Checked {
  // Like browsers and ffmpeg's GIF reader, a frame shown for under 20 ms is shown for 100 ms.
  const delays = metadata.delay ?? [];
  const duration =
    Array.from({ length: metadata.pages ?? 1 }, (_, i) => delays[i] ?? 0).reduce((sum, ms) => sum + (ms < 20 ? 100 : ms), 0) / 1000;
  if (duration > limits.maxClipSeconds) {
    throw new UploadRejectedError(
      "TOO_LONG",
      `This animation is ${formatDuration(duration)} long. Clips can be at most ${formatDuration(limits.maxClipSeconds)}.`,
    );
  }
  return {
    kind: "video",
    mime: "image/gif",
    bytes,
    width: metadata.width ?? 0,
    height: metadata.pageHeight ?? metadata.height ?? 0,
    duration,
    rotation: 0,
    hasAudio: false,
    codec: "gif",
    frameRate: null,
  };
}

// EXIF orientations 1–8 as clockwise turns (the mirrored ones, 2/4/5/7, also flip).
const ORIENTATION_ROTATION: Record<number, Rotation> = { 1: 0, 2: 0, 3: 180, 4: 180, 5: 270, 6: 90, 7: 90, 8: 270 };

async function tooManyPixels(file: string, limits: UploadLimits) {
  // The header alone gives the size: reading it decodes no pixel, whatever the size claims.
  const { width = 0, height = 0 } = await sharp(file, { limitInputPixels: false })
    .metadata()
    .catch(() => ({}) as Metadata);
  const megapixels = Math.floor(limits.maxPhotoPixels / 1_000_000);
  const size = width && height ? ` (${width} × ${height} pixels)` : "";
  return new UploadRejectedError("TOO_MANY_PIXELS", `This photo is too big${size}. Photos can have at most ${megapixels} megapixels.`);
}

async function assertPhotoDecodes(file: string, limits: UploadLimits) {
  try {
    // A small decode (JPEG shrinks on load) catches truncated or corrupt pixel data cheaply.
    await sharp(file, { limitInputPixels: limits.maxPhotoPixels, failOn: "error" }).resize(64, 64, { fit: "inside" }).raw().toBuffer();
  } catch (error) {
    throw new UploadRejectedError("UNREADABLE", UNREADABLE_MEDIA_MESSAGE, String(error));
  }
}
