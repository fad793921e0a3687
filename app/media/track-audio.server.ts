import { readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { WAVEFORM_POINTS, waveformPeaks } from "~/domain/waveform";
import { LOUDNORM_FILTER, LOUDNORM_MIN_SECONDS, gainToTarget } from "./loudness.server";
import { type AudioStreamInfo, type MediaProbe, UnreadableMediaError, probeMedia } from "./probe.server";
import { runFfmpeg } from "./run.server";
import { UploadRejectedError, formatBytes, formatDuration } from "./upload-rejected-error";

// Music tracks (spec §3 Track): checked by their content, then made into the rendition every
// soundtrack reads — AAC in MP4, 48 kHz stereo, loudness normalised like every clip (-16 LUFS).

export const TRACK_RENDITION = { sampleRate: 48_000, channels: 2, bitrate: "192k", contentType: "audio/mp4" } as const;

// The waveform is drawn from a mono decode at this rate: plenty for 200 peaks, small for 15 minutes.
const WAVEFORM_RATE = 2000;

// Below this integrated loudness a file is taken as silence: there is nothing to set a level from.
const SILENCE_LUFS = -60;

export const NOT_MUSIC_MESSAGE = "This is not a music file we can read. Please choose an MP3, M4A, AAC, WAV, FLAC or OGG file.";

export type TrackLimits = { maxBytes: number; maxSeconds: number };

export type CheckedTrack = { probe: MediaProbe; audio: AudioStreamInfo; durationSeconds: number };

/** Decides from the content (never the name) that a file is music within the limits; throws UploadRejectedError. */
export async function validateTrackFile(file: string, limits: TrackLimits): Promise<CheckedTrack> {
  const { size } = await stat(file);
  if (size === 0) throw new UploadRejectedError("EMPTY", "This file is empty.");
  if (size > limits.maxBytes) throw new UploadRejectedError("TOO_LARGE", `This file is larger than ${formatBytes(limits.maxBytes)}.`);
  let probe: MediaProbe;
  try {
    probe = await probeMedia(file);
  } catch (error) {
    if (error instanceof UnreadableMediaError) throw new UploadRejectedError("UNSUPPORTED_TYPE", NOT_MUSIC_MESSAGE, error.detail);
    throw error;
  }
  if (probe.kind === "video")
    throw new UploadRejectedError("UNSUPPORTED_TYPE", "This is a video. Please choose a music file, such as an MP3 or M4A.");
  if (probe.kind !== "audio" || !probe.audio || !probe.duration)
    throw new UploadRejectedError("UNSUPPORTED_TYPE", NOT_MUSIC_MESSAGE, `kind ${probe.kind}`);
  if (probe.duration > limits.maxSeconds) throw tooLong(limits.maxSeconds);
  return { probe, audio: probe.audio, durationSeconds: probe.duration };
}

export type TrackAnalysis = {
  durationSeconds: number;
  /** Integrated loudness (LUFS) of the audio analysed. */
  loudnessLufs: number;
  /** True peak (dBTP). */
  truePeakDb: number;
  waveform: number[];
};

type LoudnormReport = { output_i?: string; output_tp?: string };

/** Loudness, true peak, duration and waveform of a file as it is, in one decode. */
export async function analyseTrack(input: string, audioStreamIndex: number, workDir: string): Promise<TrackAnalysis> {
  const { loudness, samples } = await measure(input, audioStreamIndex, workDir);
  return {
    durationSeconds: samples.length / WAVEFORM_RATE,
    loudnessLufs: requireSound(loudness.integrated),
    truePeakDb: loudness.truePeak ?? 0,
    waveform: waveformPeaks(samples, WAVEFORM_POINTS),
  };
}

/**
 * Makes the rendition: measured first, then levelled with two-pass linear loudnorm (a music mix
 * keeps its dynamics; loudnorm itself falls back to limiting when the peaks would pass the target).
 * Clips under 3 s get a fixed gain instead (docs/decisions/008). The waveform and the output's
 * loudness come from the same pass that writes the file.
 */
export async function normaliseTrack(
  input: string,
  output: string,
  audioStreamIndex: number,
  workDir: string,
  { bitrate = TRACK_RENDITION.bitrate, maxSeconds }: { bitrate?: string; maxSeconds?: number } = {},
): Promise<TrackAnalysis> {
  const { loudness: first, samples: source } = await measure(input, audioStreamIndex, workDir, maxSeconds);
  const integrated = requireSound(first.integrated);
  const truePeak = first.truePeak;
  const short = source.length / WAVEFORM_RATE < LOUDNORM_MIN_SECONDS;
  const gain = short ? gainToTarget({ integrated, truePeak }) : 0;
  const measured = [
    `measured_I=${integrated}`,
    `measured_LRA=${first.range ?? 0}`,
    `measured_TP=${truePeak ?? 0}`,
    ...(first.threshold !== null ? [`measured_thresh=${first.threshold}`] : []),
  ];
  const level = short ? `volume=${gain}dB` : `${LOUDNORM_FILTER}:${measured.join(":")}:linear=true:print_format=json`;
  const wave = path.join(workDir, "waveform.f32");
  const { sampleRate, channels } = TRACK_RENDITION;
  try {
    const { stderrTail } = await runFfmpeg([
      "-hide_banner",
      "-nostats",
      "-y",
      "-i",
      input,
      "-filter_complex",
      `[0:${audioStreamIndex}]${level},aresample=${sampleRate},aformat=sample_fmts=fltp:channel_layouts=stereo,asplit=2[r][w]`,
      "-map",
      "[r]",
      "-c:a",
      "aac",
      "-b:a",
      bitrate,
      "-ar",
      String(sampleRate),
      "-ac",
      String(channels),
      // Tags and cover art stay with the original only.
      "-map_metadata",
      "-1",
      "-map_chapters",
      "-1",
      "-movflags",
      "+faststart",
      "-f",
      "mp4",
      output,
      ...waveformOutput(wave),
    ]);
    const samples = await readWaveform(wave);
    const report: LoudnormReport = short ? {} : loudnormReport(stderrTail);
    return {
      durationSeconds: samples.length / WAVEFORM_RATE,
      loudnessLufs: numberOf(report.output_i) ?? integrated + gain,
      truePeakDb: numberOf(report.output_tp) ?? (truePeak ?? 0) + gain,
      waveform: waveformPeaks(samples, WAVEFORM_POINTS),
    };
  } catch (error) {
    await rm(output, { force: true });
    throw error;
  }
}

/**
 * One decode: the EBU R128 measurements (ebur128, about six times quicker than loudnorm's own
 * analysis, which resamples to 192 kHz) and the mono samples the waveform is drawn from.
 */
async function measure(input: string, audioStreamIndex: number, workDir: string, maxSeconds?: number) {
  const wave = path.join(workDir, "waveform.f32");
  const { stderrTail } = await runFfmpeg([
    "-hide_banner",
    "-nostats",
    "-y",
    // A container can understate its length: decoding stops just past the limit, whatever it claims.
    ...(maxSeconds ? ["-t", String(maxSeconds + 1)] : []),
    "-i",
    input,
    // framelog=verbose: only the summary is logged, not a line per 100 ms.
    "-filter_complex",
    `[0:${audioStreamIndex}]asplit=2[m][w];[m]ebur128=peak=true:framelog=verbose[l]`,
    "-map",
    "[l]",
    "-f",
    "null",
    "-",
    ...waveformOutput(wave),
  ]);
  const samples = await readWaveform(wave);
  if (maxSeconds && samples.length / WAVEFORM_RATE > maxSeconds) {
    throw tooLong(maxSeconds);
  }
  return { loudness: ebur128Summary(stderrTail), samples };
}

const waveformOutput = (file: string) => [
  "-map",
  "[w]",
  "-ac",
  "1",
  "-ar",
  String(WAVEFORM_RATE),
  "-c:a",
  "pcm_f32le",
  "-f",
  "f32le",
  file,
];

async function readWaveform(file: string) {
  const bytes = await readFile(file);
  await rm(file, { force: true });
  // A fresh, aligned copy: a Buffer may sit at any offset of a shared pool.
  return new Float32Array(new Uint8Array(bytes).buffer);
}

/** loudnorm prints its report as JSON at the end of ffmpeg's log. */
function loudnormReport(stderrTail: string[]): LoudnormReport {
  const text = stderrTail.join("\n");
  const json = text.slice(text.lastIndexOf("{"), text.lastIndexOf("}") + 1);
  return JSON.parse(json || "{}") as LoudnormReport;
}

type Ebur128Summary = { integrated: number | null; threshold: number | null; range: number | null; truePeak: number | null };

/** ebur128's closing summary: "I: -16.0 LUFS", "Threshold: …", "LRA: 2.7 LU", "Peak: -6.9 dBFS". */
function ebur128Summary(stderrTail: string[]): Ebur128Summary {
  const text = stderrTail.join("\n");
  const summary = text.slice(text.lastIndexOf("Summary:"));
  const read = (pattern: RegExp) => {
    const match = pattern.exec(summary);
    return match ? numberOf(match[1]) : null;
  };
  return {
    integrated: read(/\bI:\s+(-?[\d.]+|-?inf)\s+LUFS/),
    threshold: read(/Integrated loudness:\s+I:[^\n]*\n\s+Threshold:\s+(-?[\d.]+|-?inf)/),
    range: read(/\bLRA:\s+(-?[\d.]+)\s+LU/),
    truePeak: read(/\bPeak:\s+(-?[\d.]+|-?inf)\s+dBFS/),
  };
}

const tooLong = (maxSeconds: number) =>
  new UploadRejectedError("TOO_LONG", `This track is longer than ${formatDuration(maxSeconds)}. Please choose a shorter one.`);

function requireSound(integrated: number | null) {
  if (integrated === null || integrated < SILENCE_LUFS) throw new UploadRejectedError("EMPTY", "We could not hear any sound in this file.");
  return integrated;
}

function numberOf(value: string | undefined) {
  const number = Number(value);
  return value !== undefined && Number.isFinite(number) ? number : null;
}
