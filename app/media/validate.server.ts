import { stat } from "node:fs/promises";
import path from "node:path";
import { looksLikeMediaContainer } from "./container-signature.server";
import { ASK_FOR_PHOTO_OR_VIDEO, NOT_A_PHOTO_OR_VIDEO, SOUND_FILE } from "./file-signature";
import { type MediaProbe, UNREADABLE_MEDIA_MESSAGE, UnreadableMediaError, probeMedia } from "./probe.server";
import { MediaToolError, runFfmpeg } from "./run.server";
import { UploadRejectedError, formatBytes, formatDuration } from "./upload-rejected-error";
import { validatePhoto } from "./validate-photo.server";
import type { Checked, UploadLimits, ValidatedUpload } from "./validated-upload";

export { UploadRejectedError, type UploadRejectionCode } from "./upload-rejected-error";

// The same defaults as MAX_VIDEO_BYTES, MAX_PHOTO_BYTES and MAX_CLIP_SECONDS in env.server.ts.
export const DEFAULT_UPLOAD_LIMITS: Readonly<UploadLimits> = Object.freeze({
  maxVideoBytes: 2 * 1024 ** 3,
  maxPhotoBytes: 50 * 1024 ** 2,
  maxClipSeconds: 10 * 60,
  maxPhotoPixels: 100_000_000,
});

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
