// The whole video's sound in one pass over the timeline (docs/rendering.md: AAC pieces are never
// joined). The clips' sound is mixed in Node; one ffmpeg run lays the music under it, ducks the
// music while people speak, fades it out at the end and measures the mix (EBU R128); a second,
// light run applies the gain to the loudness target with a peak limiter and encodes AAC.
//
// Why not loudnorm: on ffmpeg 4.1 it costs ~23× the CPU of measuring with ebur128 (2.8 s against
// 0.12 s for two minutes of sound), and a measured gain keeps the mix's dynamics as they are.

import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { LOUDNESS_TARGET } from "~/media/loudness.server";
import { type FfmpegProgress, runFfmpeg } from "~/media/run.server";
import type { MusicPlan, RenderPlan } from "../plan";
import { AUDIO_FORMAT_FILTER, AUDIO_RATE, samplesForFrames } from "./encoding";
import { concatFileLine } from "./join.server";
import type { PieceContext } from "./segment.server";
import { audioSpans, mixTimelineAudio } from "./timeline-audio.server";

export type SoundtrackContext = Pick<PieceContext, "workDir" | "signal" | "onFrames">;
type SoundtrackPlan = Pick<RenderPlan, "music" | "totalFrames" | "profile">;

// The music dips by about 12 dB under speech at the renditions' loudness (-16 LUFS) and comes
// back within half a second of silence.
const DUCKING = "sidechaincompress=threshold=0.02:ratio=6:attack=20:release=450:makeup=1:link=maximum:detection=rms";
// Never lift a near-silent mix by more than this: it would only bring up its noise.
const MAX_GAIN_DB = 20;
const SILENCE_LUFS = -69;

const exactly = (samples: number) => `apad,atrim=end_sample=${samples}`;

/** The video's length in seconds, as its soundtrack counts it. */
const soundtrackSeconds = (plan: SoundtrackPlan) => samplesForFrames(plan.totalFrames, plan.profile.fps) / AUDIO_RATE;

/** Whether the music, from its start point, ends before the video does and so has to play again. */
export const musicLoops = (plan: SoundtrackPlan): plan is SoundtrackPlan & { music: MusicPlan } =>
  plan.music !== null && plan.music.availableSeconds < soundtrackSeconds(plan) + 0.05;

/**
 * An ffconcat list (pure) that plays the track from its start point as many times as the video
 * needs. A list rather than `-stream_loop`: that goes back to the file's beginning, not to the start
 * point, and the concat demuxer's own looping cannot seek. Its length grows with the video's
 * duration over the track's, never with the number of clips.
 */
export function musicLoopList(music: Pick<MusicPlan, "startSeconds" | "availableSeconds">, musicFile: string, seconds: number) {
  // One play more than the video's length needs: the last is cut where the video ends.
  const plays = Math.ceil(seconds / Math.max(music.availableSeconds, 0.25)) + 1;
  const entry = `${concatFileLine(musicFile)}\ninpoint ${music.startSeconds.toFixed(3)}\n`;
  return `ffconcat version 1.0\n${entry.repeat(plays)}`;
}

/**
 * Pass one (pure): the clips' timeline and the music mixed, measured, written as float WAV.
 * `loopList` is the music's ffconcat list when it loops (musicLoops), else null.
 */
export function soundtrackMixArgs(
  plan: SoundtrackPlan,
  timeline: string,
  musicFile: string | null,
  mixFile: string,
  loopList: string | null = null,
) {
  const samples = samplesForFrames(plan.totalFrames, plan.profile.fps);
  const seconds = soundtrackSeconds(plan);
  const measure = "ebur128=peak=sample:framelog=verbose";
  const inputs = ["-i", timeline];
  let graph: string;
  const music = musicFile ? plan.music : null;
  if (music && musicFile) {
    // A track shorter than the video starts again from its start point.
    inputs.push(...(loopList ? ["-f", "concat", "-safe", "0", "-i", loopList] : ["-ss", music.startSeconds.toFixed(3), "-i", musicFile]));
    const fade = Math.min(music.fadeOutSeconds, seconds);
    const fadeOut = fade > 0 ? `,afade=t=out:st=${(seconds - fade).toFixed(6)}:d=${fade.toFixed(6)}` : "";
    graph = [
      `[0:a]${AUDIO_FORMAT_FILTER},asplit=2[clips][key]`,
      // Count the music's timestamps afresh: each play of a looped track starts its own.
      `[1:a]${AUDIO_FORMAT_FILTER},asetpts=N/SR/TB,${exactly(samples)},volume=${music.volume.toFixed(3)}${fadeOut}[music]`,
      `[music][key]${DUCKING}[ducked]`,
      // amix halves each input; the volume puts them back at full level (amerge loses the channel
      // layout of a split input on ffmpeg 4.1 and fails once the music's first frame arrives).
      `[ducked][clips]amix=inputs=2:duration=first:dropout_transition=0,volume=2,${AUDIO_FORMAT_FILTER},${exactly(samples)},${measure}[out]`,
    ].join(";");
  } else {
    graph = `[0:a]${AUDIO_FORMAT_FILTER},${exactly(samples)},${measure}[out]`;
  }
  // Info level for ebur128's summary; the per-100 ms lines are pushed down to verbose above.
  return [
    "-hide_banner",
    "-v",
    "info",
    "-y",
    ...inputs,
    "-filter_complex",
    graph,
    "-map",
    "[out]",
    "-c:a",
    "pcm_f32le",
    "-f",
    "wav",
    mixFile,
  ];
}

/** Integrated loudness from ebur128's summary, or null when it printed none. */
export function integratedLoudness(stderr: readonly string[]) {
  const text = stderr.join("\n");
  const match = /Integrated loudness:\s*\n\s*I:\s*(-?[\d.]+|-inf) LUFS/.exec(text);
  if (!match) return null;
  const value = Number(match[1]);
  return Number.isFinite(value) ? value : null;
}

/** The gain that brings a mix of `integrated` LUFS to the target (0 for silence). */
export function soundtrackGainDb(integrated: number | null) {
  if (integrated === null || integrated <= SILENCE_LUFS) return 0;
  return Math.round(Math.min(LOUDNESS_TARGET.integrated - integrated, MAX_GAIN_DB) * 100) / 100;
}

/** Pass two (pure): gain, peak limit, exact length, AAC. */
export function soundtrackEncodeArgs(plan: SoundtrackPlan, mixFile: string, gainDb: number, output: string) {
  const samples = samplesForFrames(plan.totalFrames, plan.profile.fps);
  const limit = 10 ** (LOUDNESS_TARGET.truePeak / 20);
  return [
    "-hide_banner",
    "-v",
    "error",
    "-y",
    "-i",
    mixFile,
    "-af",
    `volume=${gainDb.toFixed(2)}dB,alimiter=limit=${limit.toFixed(4)}:level=0,${AUDIO_FORMAT_FILTER},${exactly(samples)}`,
    // The "fast" coder: at this bitrate it sounds as good as the default "twoloop" at half its CPU
    // (ffmpeg's own AAC maintainers made it the default for that reason in 4.0; 5.1 is back on
    // twoloop, which took 10.6 s of a soundtrack's 12.7 s here).
    "-c:a",
    "aac",
    "-aac_coder",
    "fast",
    "-b:a",
    "192k",
    "-ar",
    String(AUDIO_RATE),
    "-ac",
    "2",
    "-map_metadata",
    "-1",
    "-f",
    "mp4",
    output,
  ];
}

/**
 * Writes the soundtrack of the plan to `output` (AAC in an .m4a), exactly as long as the video.
 * `segmentAudio` holds one WAV per plan segment, in order, or null for a segment nothing of which
 * is heard (segmentIsHeard); `musicFile` is the track's rendition.
 */
export async function renderSoundtrack(
  plan: RenderPlan,
  segmentAudio: readonly (string | null)[],
  musicFile: string | null,
  output: string,
  ctx: SoundtrackContext,
): Promise<string> {
  await mkdir(ctx.workDir, { recursive: true });
  const timeline = path.join(ctx.workDir, "clip-timeline.wav");
  const mix = path.join(ctx.workDir, "mix.wav");
  const loopText = musicFile && musicLoops(plan) ? musicLoopList(plan.music, musicFile, soundtrackSeconds(plan)) : null;
  const loopList = loopText ? path.join(ctx.workDir, "music-loop.ffconcat") : null;
  const { fps } = plan.profile;
  const total = plan.totalFrames;
  // Half the progress for each ffmpeg pass.
  const report = (pass: 0 | 1) => (p: FfmpegProgress) =>
    ctx.onFrames?.(p.done && pass === 1 ? total : Math.floor((pass * total + Math.min(total, (p.outTime ?? 0) * fps)) / 2));
  try {
    if (loopList && loopText) await writeFile(loopList, loopText);
    await mixTimelineAudio(audioSpans(plan, segmentAudio), samplesForFrames(total, fps), timeline, ctx.signal);
    const measured = await runFfmpeg(soundtrackMixArgs(plan, timeline, musicFile, mix, loopList), {
      signal: ctx.signal,
      onProgress: report(0),
    });
    const gain = soundtrackGainDb(integratedLoudness(measured.stderrTail));
    await runFfmpeg(soundtrackEncodeArgs(plan, mix, gain, output), { signal: ctx.signal, onProgress: report(1) });
  } catch (error) {
    await rm(output, { force: true });
    throw error;
  } finally {
    await Promise.all([timeline, mix, loopList].map((file) => file && rm(file, { force: true })));
  }
  return output;
}
