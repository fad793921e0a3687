import { runFfmpeg } from "./run.server";

// EBU R128 targets for every rendition: integrated loudness, loudness range, true peak.
export const LOUDNESS_TARGET = { integrated: -16, range: 11, truePeak: -1.5 } as const;

const { integrated: I, range: LRA, truePeak: TP } = LOUDNESS_TARGET;
export const LOUDNORM_FILTER = `loudnorm=I=${I}:LRA=${LRA}:TP=${TP}`;

/**
 * Renditions are stereo, and their loudness is measured and levelled on the stereo mix: measured
 * on 5.1, the surrounds count +1.5 dB each, the LFE not at all, and the later downmix (ffmpeg's
 * matrix, normalised against clipping) changes the level again, so a 5.1 clip came out several
 * LU away from the −16 of every other clip. Mono becomes two equal channels at −3 dB: its
 * loudness does not change.
 */
export const STEREO_MIX = "aformat=channel_layouts=stereo";

/**
 * Single-pass loudnorm needs 3 s of audio: on shorter input it passes the sound through almost
 * untouched (measured with ffmpeg 4.1: a 2 s clip at -21.8 LUFS comes out at -21.0, in dynamic and
 * in linear mode alike). Shorter clips get a measured, fixed gain instead.
 */
export const LOUDNORM_MIN_SECONDS = 3;

// Never lift a near-silent clip by more than this: it would only bring up its noise.
const MAX_GAIN_DB = 20;

export type Loudness = { integrated: number | null; truePeak: number | null };

/** Integrated loudness (LUFS) and true peak (dBTP) of one audio stream, as its stereo mix. */
export async function measureLoudness(
  file: string,
  audioStreamIndex: number,
  { signal }: { signal?: AbortSignal } = {},
): Promise<Loudness> {
  const { stderrTail } = await runFfmpeg(
    [
      "-hide_banner",
      "-nostats",
      "-vn",
      "-i",
      file,
      "-map",
      `0:${audioStreamIndex}`,
      "-af",
      `${STEREO_MIX},${LOUDNORM_FILTER}:print_format=json`,
      "-f",
      "null",
      "-",
    ],
    { signal, timeoutMs: 600_000 },
  );
  const text = stderrTail.join("\n");
  const json = text.slice(text.lastIndexOf("{"), text.lastIndexOf("}") + 1);
  const report = JSON.parse(json || "{}") as { input_i?: string; input_tp?: string };
  return { integrated: finiteOrNull(report.input_i), truePeak: finiteOrNull(report.input_tp) };
}

/** The fixed gain (dB) that brings a clip to the target loudness without its peaks passing the target. */
export function gainToTarget({ integrated, truePeak }: Loudness): number {
  if (integrated === null) return 0; // silence: nothing to level
  let gain = Math.min(I - integrated, MAX_GAIN_DB);
  if (truePeak !== null) gain = Math.min(gain, TP - truePeak);
  return Math.round(gain * 100) / 100;
}

function finiteOrNull(value: string | undefined) {
  const number = Number(value);
  return value !== undefined && Number.isFinite(number) ? number : null;
}
