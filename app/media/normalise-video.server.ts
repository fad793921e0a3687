import { rm } from "node:fs/promises";
import { type Frame, blurFillGraph } from "./blur-fill-graph";
import { PROBE_AUDIO_RATE } from "./clip-signals";
import { LOUDNORM_FILTER, LOUDNORM_MIN_SECONDS, STEREO_MIX, gainToTarget, measureLoudness } from "./loudness.server";
import { type MediaProbe, UnreadableMediaError, probeMedia } from "./probe.server";
import { type FfmpegProgress, runFfmpeg } from "./run.server";

export type NormaliseProgress = FfmpegProgress & {
  /** 0–1 share of the clip written so far. */
  fraction: number;
};

export type NormaliseOptions = {
  width?: number;
  height?: number;
  fps?: number;
  onProgress?: (progress: NormaliseProgress) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The source's probe, when the caller has it already. */
  source?: MediaProbe;
  /** Where a portrait clip's subject is, down its height: it is framed on it (blur-fill-graph.ts). */
  focusY?: number;
  /** Files to write the clip's signals to, from the same decode (clip-review.server.ts). */
  probe?: ProbeOutputs;
};

/** The small grey frames and the speech band's sound that the clip's review reads (docs/decisions/053). */
export type ProbeOutputs = { frames: string; frameSize: Frame; sound: string | null };

// Every render reads renditions made with these settings (docs/architecture.md, docs/rendering.md): a fixed
// size and a constant rate, so segments can be joined without re-encoding; a key frame every second,
// so cutting never decodes far; EBU R128 loudness, so clips sound alike next to each other.
export const RENDITION_DEFAULTS = { width: 1920, height: 1080, fps: 30 } as const;
const AUDIO_RATE = 48_000;

// Renditions are working copies, read again by every render: their bitrate is capped, at 14 Mbit/s
// for 1080p30 (above what phones record at that size in HEVC, near it in H.264). Uncapped, a grainy
// low-light clip at CRF 20 came out at over 100 Mbit/s, and decoding it cost more than encoding
// the montage it went into. The cap was 12 Mbit/s with CABAC; CAVLC (see `normaliseArgs`) needs
// about 15% more bits for the same picture at the cap (docs/decisions/044).
const MAX_KBITS_1080P = 14_000;

/** The rendition's bitrate cap for a frame size, in kbit/s (scaled by area from 1080p). */
export function renditionMaxKbits(frame: Frame) {
  return Math.max(500, Math.round((MAX_KBITS_1080P * frame.width * frame.height) / (1920 * 1080)));
}

/**
 * Makes the rendition of a contributed clip: upright, on a blurred fill when its shape differs
 * from the frame, H.264/AAC in MP4 with the moov first, exactly as long as the source's picture.
 * Resolves to the probe of the output.
 */
export async function normaliseVideo(input: string, output: string, options: NormaliseOptions = {}): Promise<MediaProbe> {
  const source = options.source ?? (await probeMedia(input, { signal: options.signal }));
  const duration = source.video?.duration ?? source.duration;
  if (source.kind !== "video" || !duration) throw new UnreadableMediaError("not a video with a duration");
  const audioGainDb =
    source.audio && duration < LOUDNORM_MIN_SECONDS
      ? gainToTarget(await measureLoudness(input, source.audio.index, { signal: options.signal }))
      : undefined;
  const args = normaliseArgs({
    input,
    output,
    source,
    duration,
    frame: { width: options.width ?? RENDITION_DEFAULTS.width, height: options.height ?? RENDITION_DEFAULTS.height },
    fps: options.fps ?? RENDITION_DEFAULTS.fps,
    audioGainDb,
    focusY: options.focusY,
    probe: options.probe,
  });
  const { onProgress } = options;
  try {
    await runFfmpeg(args, {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      onProgress: onProgress && ((progress) => onProgress({ ...progress, fraction: fractionDone(progress, duration) })),
    });
  } catch (error) {
    await Promise.all([output, options.probe?.frames, options.probe?.sound].map((file) => file && rm(file, { force: true })));
    throw error;
  }
  return probeMedia(output, { signal: options.signal });
}

function fractionDone(progress: FfmpegProgress, duration: number) {
  if (progress.done) return 1;
  return Math.min(1, Math.max(0, (progress.outTime ?? 0) / duration));
}

/** The ffmpeg arguments for one rendition (pure; exported for tests). */
export function normaliseArgs({
  input,
  output,
  source,
  duration,
  frame,
  fps,
  audioGainDb,
  focusY,
  probe,
}: {
  input: string;
  output: string;
  source: MediaProbe;
  /** Seconds of picture to keep: the source's video duration. */
  duration: number;
  frame: Frame;
  fps: number;
  /** A fixed gain instead of loudnorm, for clips too short for it (see loudness.server.ts). */
  audioGainDb?: number;
  focusY?: number;
  probe?: ProbeOutputs;
}) {
  const video = source.video;
  if (!video) throw new UnreadableMediaError("no video stream");
  // ffmpeg turns rotated pictures upright while decoding (autorotate, on by default in 4.1 and
  // later), and the graph sets every size explicitly: the display shape is all it needs.
  const aspect = video.displayWidth / video.displayHeight;
  const audio = source.audio
    ? `[0:${source.audio.index}]${STEREO_MIX},${audioGainDb === undefined ? LOUDNORM_FILTER : `volume=${audioGainDb}dB`},aresample=${AUDIO_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo,apad[a]`
    : // A silent track keeps every rendition alike: the soundtrack job can then treat all clips the same.
      `anullsrc=channel_layout=stereo:sample_rate=${AUDIO_RATE}[a]`;
  const maxKbits = renditionMaxKbits(frame);
  const probeGraph = probe ? probeChains(source, probe, fps) : [];
  const graph = [blurFillGraph(`0:${video.index}`, "v", aspect, frame, fps, focusY), audio, ...probeGraph].join(";");
  return [
    "-hide_banner",
    "-v",
    "error",
    "-y",
    "-i",
    input,
    "-filter_complex",
    graph,
    "-map",
    "[v]",
    "-map",
    "[a]",
    // The picture's length, not the container's: the silence and apad above are endless.
    "-t",
    duration.toFixed(6),
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    // The simplest motion search, as the render's pieces use (docs/decisions/040): a 1080p phone
    // clip's rendition took 30% less CPU for the same size and SSIM. Processing shares the cores
    // with the preparation of the video, so every second saved here is one the render gets.
    // CAVLC and no deblocking: every render, preview and rung decodes the rendition again, and
    // decoding it took half the CPU it took with CABAC and the loop filter, for the same SSIM
    // within 0.0005 and 10-20% more bits (docs/decisions/044).
    "-x264-params",
    "me=dia:subme=1:cabac=0:no-deblock=1",
    "-crf",
    "20",
    "-profile:v",
    "high",
    "-pix_fmt",
    "yuv420p",
    "-maxrate",
    `${maxKbits}k`,
    "-bufsize",
    `${maxKbits * 2}k`,
    "-g",
    String(fps),
    "-keyint_min",
    String(fps),
    "-sc_threshold",
    "0",
    "-c:a",
    "aac",
    "-b:a",
    "192k",
    "-ar",
    String(AUDIO_RATE),
    "-ac",
    "2",
    // Phones' location and other tags stay with the original only.
    "-map_metadata",
    "-1",
    "-map_chapters",
    "-1",
    // The pixels are already upright: write no rotation (4.1 clears it itself; this keeps it so).
    "-metadata:s:v:0",
    "rotate=0",
    "-max_muxing_queue_size",
    "1024",
    "-movflags",
    "+faststart",
    "-f",
    "mp4",
    output,
    ...(probe ? probeOutputArgs(probe, duration, !!source.audio) : []),
  ];
}

/**
 * The clip's signals, from the frames the rendition decodes anyway: each frame of the source at
 * the rendition's rate, grey and small (its own shape, not the rendition's fill, whose blurred
 * copy would move with the picture), and the speech band (200 Hz–4 kHz) of its sound, mono at 8 kHz.
 * Both builds of ffmpeg feed one decoded stream to two chains.
 */
function probeChains(source: MediaProbe, probe: ProbeOutputs, fps: number) {
  const { width, height } = probe.frameSize;
  const chains = [`[0:${source.video!.index}]fps=${fps},scale=${width}:${height}:flags=area,format=gray[probe_v]`];
  if (probe.sound && source.audio) {
    chains.push(
      `[0:${source.audio.index}]aformat=channel_layouts=mono,highpass=f=200,lowpass=f=4000,` +
        `aresample=${PROBE_AUDIO_RATE},aformat=sample_fmts=s16[probe_a]`,
    );
  }
  return chains;
}

function probeOutputArgs(probe: ProbeOutputs, duration: number, hasSound: boolean) {
  const t = ["-t", duration.toFixed(6)];
  return [
    ...["-map", "[probe_v]", ...t, "-f", "rawvideo", "-pix_fmt", "gray", probe.frames],
    ...(probe.sound && hasSound
      ? ["-map", "[probe_a]", ...t, "-f", "s16le", "-ac", "1", "-ar", String(PROBE_AUDIO_RATE), probe.sound]
      : []),
  ];
}
