import { stat } from "node:fs/promises";
import path from "node:path";
import sharp, { type Metadata } from "sharp";
import { looksLikeMediaContainer } from "./container-signature.server";
import { ASK_FOR_PHOTO_OR_VIDEO, NOT_A_PHOTO_OR_VIDEO, SOUND_FILE } from "./file-signature";
import { decodeHeicPixels, decodeHeicToFile, needsHeicDecoder } from "./heic.server";
import { type MediaProbe, type Rotation, UNREADABLE_MEDIA_MESSAGE, UnreadableMediaError, probeMedia } from "./probe.server";
import { MediaToolError, runFfmpeg } from "./run.server";
import { UploadRejectedError, formatBytes, formatDuration } from "./upload-rejected-error";

export { UploadRejectedError, type UploadRejectionCode } from "./upload-rejected-error";

export type UploadLimits = {
  maxVideoBytes: number;
  maxPhotoBytes: number;
  /** Longest clip accepted, in seconds. */
  maxClipSeconds: number;
  /** Largest photo in pixels; checked from the header, before anything is decoded. */
  maxPhotoPixels: number;
};

// The same defaults as MAX_VIDEO_BYTES, MAX_PHOTO_BYTES and MAX_CLIP_SECONDS in env.server.ts.
export const DEFAULT_UPLOAD_LIMITS: Readonly<UploadLimits> = Object.freeze({
  maxVideoBytes: 2 * 1024 ** 3,
  maxPhotoBytes: 50 * 1024 ** 2,
  maxClipSeconds: 10 * 60,
  maxPhotoPixels: 100_000_000,
});

export type ValidatedUpload = {
  kind: "photo" | "video";
  /** Judged from the content, never from the name. */
  mime: string;
  bytes: number;
  /** As displayed: after the EXIF orientation or the video's rotation. */
  width: number;
  height: number;
  /** Seconds; null for photos. */
  duration: number | null;
  rotation: Rotation;
  hasAudio: boolean;
  /** Image format (jpeg, png…) or video codec (h264, hevc…). */
  codec: string;
  frameRate: number | null;
  /** Whether the name's extension fits the content; null when no name was given. */
  extensionMatchesContent: boolean | null;
  /**
   * A HEIC photo's pixels, decoded into the `workDir` given (heic.server.ts): the file every later
   * step reads the photo from. null for everything else, and without a `workDir`.
   */
  decodedPhoto: string | null;
};

const PHOTO_MIME: Record<string, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  tiff: "image/tiff",
  heif: "image/heic",
};
const VIDEO_CONTAINERS = new Set(["mov", "mp4", "m4v", "3gp", "3g2", "matroska", "webm", "avi"]);
const VIDEO_CODECS = new Set(["h264", "hevc", "vp8", "vp9", "av1", "mpeg4"]);
const EXTENSIONS: Record<string, string[]> = {
  "image/jpeg": ["jpg", "jpeg", "jfif"],
  "image/png": ["png"],
  "image/webp": ["webp"],
  "image/gif": ["gif"],
  "image/tiff": ["tif", "tiff"],
  "image/heic": ["heic", "heif"],
  "image/avif": ["avif"],
  "video/mp4": ["mp4", "m4v"],
  "video/quicktime": ["mov", "qt"],
  "video/x-m4v": ["m4v", "mp4"],
  "video/3gpp": ["3gp", "3g2"],
  "video/webm": ["webm"],
  "video/x-matroska": ["mkv", "webm"],
  "video/x-msvideo": ["avi"],
};

/**
 * Decides from the content whether an upload is a photo or a video we can use, within the limits.
 * Throws UploadRejectedError with a message for the contributor.
 */
export async function validateUpload(
  file: string,
  {
    declaredName,
    limits = DEFAULT_UPLOAD_LIMITS,
    workDir,
  }: { declaredName?: string; limits?: UploadLimits; /** Where a HEIC photo's decoded pixels are kept. */ workDir?: string } = {},
): Promise<ValidatedUpload> {
  const { size: bytes } = await stat(file);
  if (bytes === 0) throw new UploadRejectedError("EMPTY", "This file is empty.");
  const largest = Math.max(limits.maxPhotoBytes, limits.maxVideoBytes);
  if (bytes > largest) throw new UploadRejectedError("TOO_LARGE", `This file is larger than ${formatBytes(largest)}.`);

  const upload = (await validatePhoto(file, bytes, limits, workDir)) ?? {
    ...(await validateVideo(file, bytes, limits)),
    decodedPhoto: null,
  };
  return { ...upload, extensionMatchesContent: declaredName ? extensionFits(declaredName, upload.mime) : null };
}

type Checked = Omit<ValidatedUpload, "extensionMatchesContent" | "decodedPhoto">;

/** null when sharp does not see an image at all: then it may be a video. */
async function validatePhoto(
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

async function validateVideo(file: string, bytes: number, limits: UploadLimits): Promise<Checked> {
  let probe: MediaProbe;
  try {
    probe = await probeMedia(file);
  } catch (error) {
    if (!(error instanceof UnreadableMediaError)) throw error;
    if (await looksLikeMediaContainer(file)) throw new UploadRejectedError("UNREADABLE", error.message, error.detail);
    throw new UploadRejectedError("UNSUPPORTED_TYPE", NOT_A_PHOTO_OR_VIDEO);
  }
  if (probe.kind === "audio") {
    throw new UploadRejectedError("UNSUPPORTED_TYPE", SOUND_FILE);
  }
  const video = probe.video;
  if (probe.kind !== "video" || !video || !probe.formatNames.some((name) => VIDEO_CONTAINERS.has(name))) {
    throw new UploadRejectedError("UNSUPPORTED_TYPE", `We can't use this kind of file. ${ASK_FOR_PHOTO_OR_VIDEO}`);
  }
  if (!VIDEO_CODECS.has(video.codec) || video.width === 0 || video.height === 0) {
    throw new UploadRejectedError("UNSUPPORTED_TYPE", "We can't play this kind of video. Please upload an MP4, MOV or WebM video.");
  }
  if (bytes > limits.maxVideoBytes) {
    throw new UploadRejectedError("TOO_LARGE", `This video is larger than ${formatBytes(limits.maxVideoBytes)}.`);
  }
  const duration = probe.duration ?? 0;
  if (duration > limits.maxClipSeconds) {
    throw new UploadRejectedError(
      "TOO_LONG",
      `This clip is ${formatDuration(duration)} long. Clips can be at most ${formatDuration(limits.maxClipSeconds)}.`,
    );
  }
  await assertVideoEndDecodes(file);
  return {
    kind: "video",
    mime: videoMime(probe),
    bytes,
    width: video.displayWidth,
    height: video.displayHeight,
    duration,
    rotation: video.rotation,
    hasAudio: probe.audio !== null,
    codec: video.codec,
    frameRate: video.frameRate,
  };
}

/**
 * ffprobe reads only the header: an MP4 whose index comes first still probes fine when the upload
 * stopped part-way. Decoding the last second finds the missing data (`-xerror` turns the demuxer's
 * "partial file" into a failure; zero frames means the stated end is not there).
 */
async function assertVideoEndDecodes(file: string) {
  let frames = 0;
  try {
    await runFfmpeg(["-v", "error", "-xerror", "-sseof", "-1", "-i", file, "-f", "null", "-"], {
      timeoutMs: 120_000,
      onProgress: (progress) => (frames = progress.frame ?? frames),
    });
  } catch (error) {
    if (error instanceof MediaToolError && error.reason === "failed") {
      throw new UploadRejectedError("UNREADABLE", UNREADABLE_MEDIA_MESSAGE, error.message);
    }
    throw error;
  }
  if (frames === 0) throw new UploadRejectedError("UNREADABLE", UNREADABLE_MEDIA_MESSAGE, "no frame decoded in the last second");
}

function videoMime({ formatNames, tags, audio, video }: MediaProbe): string {
  if (formatNames.includes("avi")) return "video/x-msvideo";
  if (formatNames.includes("matroska")) {
    const webmCodecs = ["vp8", "vp9", "av1"].includes(video?.codec ?? "") && ["opus", "vorbis", undefined].includes(audio?.codec);
    return webmCodecs ? "video/webm" : "video/x-matroska";
  }
  const brand = (tags.major_brand ?? "").trim().toLowerCase();
  if (brand === "qt") return "video/quicktime";
  if (brand.startsWith("3g")) return "video/3gpp";
  if (brand === "m4v") return "video/x-m4v";
  return "video/mp4";
}

function extensionFits(name: string, mime: string) {
  const extension = path.extname(name).slice(1).toLowerCase();
  return (EXTENSIONS[mime] ?? []).includes(extension);
}
