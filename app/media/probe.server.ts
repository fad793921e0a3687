import { MediaToolError, runFfprobe } from "./run.server";

export type Rotation = 0 | 90 | 180 | 270;

export type VideoStreamInfo = {
  /** Stream index in the file, for `-map 0:N`. */
  index: number;
  codec: string;
  /** Coded size, as stored. */
  width: number;
  height: number;
  /** Size as shown to a viewer: with square pixels, after `rotation`. */
  displayWidth: number;
  displayHeight: number;
  /** Frames per second (average, else the stream's base rate); null when unknown. */
  frameRate: number | null;
  /** Degrees clockwise a player turns the picture to show it upright. */
  rotation: Rotation;
  /** Width of a pixel over its height, as stored (1 unless anamorphic). */
  sampleAspectRatio: number;
  pixelFormat: string | null;
  duration: number | null;
};

export type AudioStreamInfo = { index: number; codec: string; sampleRate: number | null; channels: number | null };

export type MediaKind = "video" | "image" | "audio" | "unknown";

export type MediaProbe = {
  kind: MediaKind;
  /** ffprobe's format names, e.g. ["mov", "mp4", "m4a", "3gp", "3g2", "mj2"]. */
  formatNames: string[];
  /** Seconds; null when the container states none (still images). */
  duration: number | null;
  size: number | null;
  video: VideoStreamInfo | null;
  audio: AudioStreamInfo | null;
  /** Container tags such as `major_brand`, lower-cased keys. */
  tags: Record<string, string>;
};

export const UNREADABLE_MEDIA_MESSAGE = "We could not read this file. It may be damaged or in a format we don't support.";

export class UnreadableMediaError extends Error {
  override name = "UnreadableMediaError";
  constructor(readonly detail?: string) {
    super(UNREADABLE_MEDIA_MESSAGE);
  }
}

export async function probeMedia(file: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}) {
  let stdout: string;
  try {
    ({ stdout } = await runFfprobe(["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file], options));
  } catch (error) {
    if (error instanceof MediaToolError && error.reason === "failed") throw new UnreadableMediaError(error.message);
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new UnreadableMediaError("ffprobe printed no JSON");
  }
  return summariseProbe(parsed as FfprobeOutput);
}

type FfprobeStream = {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  pix_fmt?: string;
  sample_aspect_ratio?: string;
  duration?: string;
  nb_frames?: string;
  sample_rate?: string;
  channels?: number;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: Array<{ side_data_type?: string; rotation?: number | string }>;
};
export type FfprobeOutput = {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string; size?: string; tags?: Record<string, string> };
};

// Demuxers that hold one picture: ffprobe gives them a 25 fps "video" stream with no real duration.
const IMAGE_FORMATS = /^(image2|image2pipe|\w+_pipe|webp|apng)$/;
const IMAGE_CODECS = new Set(["mjpeg", "png", "webp", "bmp", "tiff", "gif", "jpeg2000", "jpegls", "hevc", "av1", "heif"]);

/** The typed summary of ffprobe's JSON (pure: tested on recorded outputs too). */
export function summariseProbe(output: FfprobeOutput): MediaProbe {
  const streams = output.streams ?? [];
  const formatNames = (output.format?.format_name ?? "").split(",").filter(Boolean);
  // Cover art in an audio or video file is a "video" stream too: it is not the picture.
  const videoStream = streams.find((s) => s.codec_type === "video" && !s.disposition?.attached_pic);
  const audioStream = streams.find((s) => s.codec_type === "audio");
  const duration =
    positiveNumber(output.format?.duration) ?? positiveNumber(videoStream?.duration) ?? positiveNumber(audioStream?.duration);
  const video = videoStream ? summariseVideo(videoStream) : null;
  const audio = audioStream
    ? {
        index: audioStream.index ?? 0,
        codec: audioStream.codec_name ?? "unknown",
        sampleRate: positiveNumber(audioStream.sample_rate),
        channels: audioStream.channels ?? null,
      }
    : null;
  return {
    kind: kindOf(formatNames, videoStream, video, audio, duration),
    formatNames,
    duration,
    size: positiveNumber(output.format?.size),
    video,
    audio,
    tags: lowerCaseKeys(output.format?.tags),
  };
}

function kindOf(
  formatNames: string[],
  stream: FfprobeStream | undefined,
  video: VideoStreamInfo | null,
  audio: AudioStreamInfo | null,
  duration: number | null,
): MediaKind {
  if (video && stream) {
    const imageFormat = formatNames.some((name) => IMAGE_FORMATS.test(name));
    const oneFrame = stream.nb_frames === "1" || duration === null || (video.frameRate !== null && duration <= 1.5 / video.frameRate);
    if (imageFormat || (IMAGE_CODECS.has(video.codec) && oneFrame)) return "image";
    if (duration !== null) return "video";
  }
  if (audio && duration !== null) return "audio";
  return "unknown";
}

function summariseVideo(stream: FfprobeStream): VideoStreamInfo {
  const width = stream.width ?? 0;
  const height = stream.height ?? 0;
  const rotation = rotationOf(stream);
  const sampleAspectRatio = ratio(stream.sample_aspect_ratio, ":") ?? 1;
  // Anamorphic video (DV, some old cameras) stores narrow pixels that players widen.
  const shownWidth = Math.round(width * sampleAspectRatio);
  const sideways = rotation === 90 || rotation === 270;
  return {
    index: stream.index ?? 0,
    codec: stream.codec_name ?? "unknown",
    width,
    height,
    displayWidth: sideways ? height : shownWidth,
    displayHeight: sideways ? shownWidth : height,
    frameRate: ratio(stream.avg_frame_rate, "/") ?? ratio(stream.r_frame_rate, "/"),
    rotation,
    sampleAspectRatio,
    pixelFormat: stream.pix_fmt ?? null,
    duration: positiveNumber(stream.duration),
  };
}

/**
 * Phones mark portrait clips with a display matrix, which ffprobe prints as side data `rotation`
 * (counter-clockwise degrees); ffprobe 4.x also prints it as a `rotate` tag (clockwise degrees).
 * The matrix wins when both are there. Result: clockwise degrees, as ffmpeg's autorotate applies them.
 */
export function rotationOf(stream: Pick<FfprobeStream, "tags" | "side_data_list">): Rotation {
  const matrix = stream.side_data_list?.find((d) => d.rotation !== undefined && d.rotation !== "");
  if (matrix) return normaliseRotation(-Number(matrix.rotation));
  const tag = stream.tags?.rotate;
  return tag === undefined ? 0 : normaliseRotation(Number(tag));
}

function normaliseRotation(degrees: number): Rotation {
  if (!Number.isFinite(degrees)) return 0;
  const quarter = (((Math.round(degrees / 90) % 4) + 4) % 4) as 0 | 1 | 2 | 3;
  return ([0, 90, 180, 270] as const)[quarter];
}

/** "30000/1001" or "4:3" as a number; null for "0/0", "N/A" and the like. */
function ratio(value: string | undefined, separator: "/" | ":") {
  if (!value) return null;
  const [numerator, denominator = "1"] = value.split(separator);
  const result = Number(numerator) / Number(denominator);
  return Number.isFinite(result) && result > 0 ? result : null;
}

function positiveNumber(value: string | undefined) {
  if (value === undefined) return null;
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : null;
}

function lowerCaseKeys(tags: Record<string, string> | undefined) {
  return Object.fromEntries(Object.entries(tags ?? {}).map(([key, value]) => [key.toLowerCase(), value]));
}
