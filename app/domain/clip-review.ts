// What a careful editor would do with a clip before it goes into the montage (docs/decisions/053):
// trim the dead air at either end — black, a thumb over the lens, a frozen picture, with no one
// speaking — and the tap that stopped the recording, never speech or movement; and say plainly when
// a clip is very dark, very quiet, very short or very shaky. Pure: the signals come from
// app/media/clip-signals.ts, read while the rendition is made.

import type { ClipAdvice } from "./clip-advice";

export interface ClipSignals {
  fps: number;
  /** Mean brightness of each frame, 0 (black) to 1 (white). */
  level: number[];
  /** Share of each frame's pixels that are not black (a tenth of the range or more). */
  lit: number[];
  /** Mean difference between neighbouring pixels, in grey levels: 0 for a flat picture. */
  detail: number[];
  /** Mean difference from the frame before, in grey levels (NaN for the first frame). */
  change: number[];
  /** How far the picture moved since the frame before, in shares of its width and height. */
  shiftX: number[];
  shiftY: number[];
  /** The speech band's level of each frame in dBFS (-Infinity in digital silence); null with no sound. */
  sound: number[] | null;
}

export interface ClipReview {
  /** The trim the clip gets unless the organiser sets one: seconds in, and out (null: to the end). */
  trimStart: number;
  trimEnd: number | null;
  advice: ClipAdvice[];
}

/** Pictures with less than this share lit are black (ffmpeg's blackdetect: 98 % of pixels dark). */
const BLACK_LIT_SHARE = 0.02;
/** Less detail than this (grey levels between neighbours) is a thumb over the lens, a lens cap, fog. */
const FLAT_DETAIL = 0.8;
/**
 * A frame that changed less than this (grey levels, on a copy 128 pixels wide whose averaging
 * takes most sensor noise away) from the one before is frozen: ffmpeg's test picture, still but
 * for a small counter, changes 0.35 a frame; a paused or repeated picture, under 0.1.
 */
const FROZEN_CHANGE = 0.2;
/** Sound this far over the clip's own quiet is someone speaking, or something happening… */
const SOUND_OVER_FLOOR_DB = 15;
/** …and never counted as sound under -50 dBFS, nor ignored over -30 dBFS, whatever the clip's quiet. */
const SOUND_THRESHOLD_DB = { least: -50, most: -30 } as const;
/** Sound for less than this is a click (a tap on the screen), not speech. */
const LEAST_SPEECH_SECONDS = 0.16;
/** Gaps shorter than this inside a sound belong to it: between syllables. */
const SPEECH_GAP_SECONDS = 0.1;
/** Dead air shorter than this at an end is left alone (a trim so small is a fidget); a tap is cut however short. */
const LEAST_DEAD_SECONDS = 0.3;
/** Kept before the first sign of life and after the last, so nothing starts or ends abruptly. */
const MARGIN_SECONDS = { before: 0.1, after: 0.2 } as const;
/** A tap that starts or stops a recording is within this of its ends. */
const TAP_WINDOW_SECONDS = 0.6;
/** A trimmed clip keeps at least this (app/domain/media-rules.ts MIN_KEPT_SECONDS). */
const LEAST_KEPT_SECONDS = 1;

/** What is kept of a clip shorter than this is very short. */
export const SHORT_CLIP_SECONDS = 2;
/** Most of the kept frames darker than this (mean brightness) is very dark. */
const DARK_LEVEL = 0.15;
/** The loud moments of the kept sound (its 95th percentile) under this is very quiet. */
const QUIET_DB = -45;
/** Jitter of the picture (its shake less its smooth movement, RMS) over this share of the frame is very shaky. */
const SHAKY_SHARE = 0.015;
/** The smooth movement is the picture's path averaged over this: a pan is not shake. */
const SMOOTH_SECONDS = 0.5;

const percentile = (values: number[], share: number) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(share * (sorted.length - 1))))]!;
};

/** Runs of `true` in `flags` as [start, end) frame ranges. */
function runsOf(flags: boolean[]) {
  const runs: [number, number][] = [];
  for (let i = 0; i < flags.length; i++) {
    if (!flags[i]) continue;
    const start = i;
    while (i < flags.length && flags[i]) i++;
    runs.push([start, i]);
  }
  return runs;
}

/**
 * Which frames have sound (speech, or anything well over the clip's own quiet), and where its
 * clicks are: sounds too short to be a word.
 */
export function soundOf(signals: ClipSignals) {
  const frames = signals.level.length;
  if (!signals.sound) return { speech: new Array<boolean>(frames).fill(false), clicks: [] as [number, number][] };
  const levels = signals.sound.map((db) => (Number.isFinite(db) ? db : -120));
  const floor = percentile(levels, 0.1);
  const threshold = Math.min(SOUND_THRESHOLD_DB.most, Math.max(SOUND_THRESHOLD_DB.least, floor + SOUND_OVER_FLOOR_DB));
  const loud = levels.map((db) => db > threshold);
  // Short gaps between syllables are closed first, so a word is one run.
  const gap = Math.round(SPEECH_GAP_SECONDS * signals.fps);
  const runs = runsOf(loud);
  for (let r = 1; r < runs.length; r++) {
    if (runs[r]![0] - runs[r - 1]![1] <= gap) for (let i = runs[r - 1]![1]; i < runs[r]![0]; i++) loud[i] = true;
  }
  const speech = new Array<boolean>(frames).fill(false);
  const clicks: [number, number][] = [];
  const least = Math.round(LEAST_SPEECH_SECONDS * signals.fps);
  for (const [start, end] of runsOf(loud)) {
    if (end - start >= least) for (let i = start; i < end; i++) speech[i] = true;
    else clicks.push([start, end]);
  }
  return { speech, clicks };
}

/** Whether each frame shows nothing worth keeping: black, flat, or no different from the one before. */
export function stillOrBlank(signals: ClipSignals) {
  return signals.level.map((_, i) => {
    const black = signals.lit[i]! < BLACK_LIT_SHARE;
    const flat = signals.detail[i]! < FLAT_DETAIL;
    // The first frame is judged by the change into the second.
    const change = i === 0 ? (signals.change[1] ?? 0) : signals.change[i]!;
    return black || flat || change < FROZEN_CHANGE;
  });
}

/**
 * The clip's default trim: the dead air at each end left out. A frame is dead when nobody speaks
 * and its picture is black, flat or frozen; life starts at the first run of three live frames and
 * ends after the last. A click within the first or last 0.6 s with no speech between it and the
 * edge is the tap that started or stopped the recording, cut with whatever shook after it. Dead
 * air under 0.3 s stays; a clip with no life at all, or too little to keep a second, is left whole.
 */
export function deadAirTrim(signals: ClipSignals, duration: number): { trimStart: number; trimEnd: number | null } {
  const { fps } = signals;
  const frames = Math.min(signals.level.length, Math.round(duration * fps));
  const whole = { trimStart: 0, trimEnd: null };
  if (frames < 3) return whole;
  const { speech, clicks } = soundOf(signals);
  const blank = stillOrBlank(signals);
  const live = blank.slice(0, frames).map((isBlank, i) => speech[i] || !isBlank);
  const steady = (i: number) => live[i] && live[i + 1] && live[i + 2];
  let first = 0;
  while (first < frames - 2 && !steady(first)) first++;
  if (first >= frames - 2) return whole;
  let last = frames - 1;
  while (last > 2 && !(live[last] && live[last - 1] && live[last - 2])) last--;

  let start = first / fps;
  let end = (last + 1) / fps;
  let startMargin: number = MARGIN_SECONDS.before;
  let endMargin: number = MARGIN_SECONDS.after;
  // A tap is cut however little follows it: its click and jolt are never worth keeping.
  let leastAtStart: number = LEAST_DEAD_SECONDS;
  let leastAtEnd: number = LEAST_DEAD_SECONDS;
  const window = Math.round(TAP_WINDOW_SECONDS * fps);
  const lastSpeech = speech.lastIndexOf(true);
  const firstSpeech = speech.indexOf(true);
  // The tap that stopped it: the last click near the end, after anyone spoke.
  const stop = clicks.filter(([s]) => s >= frames - window && s > lastSpeech).at(0);
  if (stop && stop[0] / fps < end) {
    end = stop[0] / fps;
    endMargin = 0;
    leastAtEnd = 1 / fps;
  }
  const begin = clicks.filter(([, e]) => e <= window && (firstSpeech < 0 || e <= firstSpeech)).at(-1);
  if (begin && begin[1] / fps > start) {
    start = begin[1] / fps;
    startMargin = 0;
    leastAtStart = 1 / fps;
  }
  const trimStart = start >= leastAtStart ? Math.max(0, start - startMargin) : 0;
  const tail = duration - end;
  const trimEnd = tail >= leastAtEnd ? Math.min(duration, end + endMargin) : null;
  if ((trimEnd ?? duration) - trimStart < LEAST_KEPT_SECONDS) return whole;
  return { trimStart: round(trimStart), trimEnd: trimEnd === null ? null : round(trimEnd) };
}

const round = (seconds: number) => Math.round(seconds * 100) / 100;

/**
 * How much the picture shakes: its path (the frame-to-frame shifts added up) less that path
 * smoothed over half a second, as an RMS share of the frame. A steady pan or walk moves the
 * smooth path and is no shake; a hand's tremble is.
 */
export function shakeOf(signals: ClipSignals, from: number, to: number) {
  const half = Math.max(1, Math.round((SMOOTH_SECONDS * signals.fps) / 2));
  // In the dark, or on a flat picture (and so from black into the picture), its profiles do not say how it moved.
  const readable = (i: number) => signals.lit[i]! >= BLACK_LIT_SHARE && signals.detail[i]! >= FLAT_DETAIL;
  const path = (shifts: number[]) => {
    const out: number[] = [];
    let at = 0;
    for (let i = from; i < to; i++) out.push((at += i > from && readable(i) && readable(i - 1) ? (shifts[i] ?? 0) : 0));
    return out;
  };
  // The window is as wide on both sides (narrower near the ends), so a steady pan has no jitter.
  const jitter = (track: number[]) =>
    track.map((value, i) => {
      const reach = Math.min(half, i, track.length - 1 - i);
      const window = track.slice(i - reach, i + reach + 1);
      return value - window.reduce((a, b) => a + b, 0) / window.length;
    });
  const x = jitter(path(signals.shiftX));
  const y = jitter(path(signals.shiftY));
  if (!x.length) return 0;
  return Math.sqrt(x.reduce((sum, v, i) => sum + v * v + y[i]! * y[i]!, 0) / x.length);
}

/** The default trim and what to say about what is kept of the clip (nothing is ever refused for it). */
export function reviewClip(signals: ClipSignals, duration: number): ClipReview {
  const trim = deadAirTrim(signals, duration);
  const { fps } = signals;
  const kept = (trim.trimEnd ?? duration) - trim.trimStart;
  const from = Math.min(signals.level.length - 1, Math.max(0, Math.round(trim.trimStart * fps)));
  const to = Math.max(from + 1, Math.min(signals.level.length, Math.round((trim.trimEnd ?? duration) * fps)));
  const advice: ClipAdvice[] = [];
  if (percentile(signals.level.slice(from, to), 0.75) < DARK_LEVEL) advice.push("dark");
  if (signals.sound) {
    const loud = percentile(
      signals.sound.slice(from, to).map((db) => (Number.isFinite(db) ? db : -120)),
      0.95,
    );
    if (loud < QUIET_DB) advice.push("quiet");
  }
  if (kept < SHORT_CLIP_SECONDS) advice.push("short");
  if (shakeOf(signals, from, to) > SHAKY_SHARE) advice.push("shaky");
  return { ...trim, advice };
}
