// What a clip's picture and sound do, frame by frame (pure; docs/decisions/053). Made while the
// rendition is made, from a small grey copy of every frame and the sound of the speech band at
// 8 kHz (see `clipProbeOutputs` in normalise-video.server.ts), so the clip is decoded only once.
// The rules that read these signals (dead air, advice) are in app/domain/clip-review.ts.

import type { ClipSignals } from "~/domain/clip-review";

/** The small grey copy's longer side, in pixels: enough to see black, stillness and shake. */
export const PROBE_LONG_SIDE = 128;
/** The speech band's sample rate: the band ends at 4 kHz. */
export const PROBE_AUDIO_RATE = 8_000;

/** The grey copy's size for a picture of this display shape, even on both sides. */
export function probeFrameSize(aspect: number) {
  const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
  return aspect >= 1
    ? { width: PROBE_LONG_SIDE, height: even(PROBE_LONG_SIDE / aspect) }
    : { width: even(PROBE_LONG_SIDE * aspect), height: PROBE_LONG_SIDE };
}

// Grey frames come out of ffmpeg in the video's limited range: 16 is black, 235 white.
const BLACK = 16;
const RANGE = 219;
/** A pixel at least this bright (a tenth of the range, as ffmpeg's blackdetect) is not black. */
const NOT_BLACK = BLACK + 0.1 * RANGE;
/** How far a frame may have moved from the last, in grey pixels, when its shift is looked for. */
const MAX_SHIFT = 8;
/**
 * The picture is cut in tiles, each tile's shift found from its own profiles, and the median of
 * the tiles' shifts taken: someone walking across one tile does not move the whole picture.
 */
const TILES = { across: 4, down: 3 } as const;
/** A tile whose profile varies less than this (grey levels) shows nothing to follow: the sky, a wall. */
const FLAT_PROFILE = 1;

type Profiles = { columns: Float64Array; rows: Float64Array }[];

/**
 * Reads the grey frames one at a time (`push` takes any chunks; a frame is `width × height`
 * bytes) and keeps a few numbers for each: how bright, how detailed, how much it changed from the
 * last, and how far the whole picture moved (from its row and column profiles, as phones'
 * stabilisers estimate shake).
 */
export class FrameSignals {
  readonly level: number[] = [];
  readonly lit: number[] = [];
  readonly detail: number[] = [];
  readonly change: number[] = [];
  readonly shiftX: number[] = [];
  readonly shiftY: number[] = [];
  private readonly frameBytes: number;
  private pending = Buffer.alloc(0);
  private previous: { frame: Buffer; tiles: Profiles } | null = null;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.frameBytes = width * height;
  }

  push(chunk: Buffer) {
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    while (data.length >= this.frameBytes) {
      this.frame(data.subarray(0, this.frameBytes));
      data = data.subarray(this.frameBytes);
    }
    this.pending = Buffer.from(data);
  }

  private frame(frame: Buffer) {
    const { width, height } = this;
    let sum = 0;
    let lit = 0;
    let detail = 0;
    for (let y = 0; y < height; y++) {
      const row = y * width;
      for (let x = 0; x < width; x++) {
        const value = frame[row + x]!;
        sum += value;
        if (value >= NOT_BLACK) lit += 1;
        if (x > 0) detail += Math.abs(value - frame[row + x - 1]!);
        if (y > 0) detail += Math.abs(value - frame[row + x - width]!);
      }
    }
    const pixels = width * height;
    this.level.push(Math.min(1, Math.max(0, (sum / pixels - BLACK) / RANGE)));
    this.lit.push(lit / pixels);
    this.detail.push(detail / (2 * pixels - width - height));
    const tiles = tileProfiles(frame, width, height);
    const last = this.previous;
    if (last) {
      let changed = 0;
      for (let i = 0; i < pixels; i++) changed += Math.abs(frame[i]! - last.frame[i]!);
      this.change.push(changed / pixels);
      const across: number[] = [];
      const down: number[] = [];
      tiles.forEach((tile, i) => {
        const before = last.tiles[i]!;
        if (spread(before.columns) >= FLAT_PROFILE && spread(tile.columns) >= FLAT_PROFILE)
          across.push(profileShift(before.columns, tile.columns));
        if (spread(before.rows) >= FLAT_PROFILE && spread(tile.rows) >= FLAT_PROFILE) down.push(profileShift(before.rows, tile.rows));
      });
      this.shiftX.push(median(across));
      this.shiftY.push(median(down));
    } else {
      // The first frame has nothing before it: it counts as its own change, none.
      this.change.push(Number.NaN);
      this.shiftX.push(0);
      this.shiftY.push(0);
    }
    this.previous = { frame: Buffer.from(frame), tiles };
  }

  get frames() {
    return this.level.length;
  }
}

/** Each tile's mean column and mean row, in reading order. */
function tileProfiles(frame: Buffer, width: number, height: number): Profiles {
  const tiles: Profiles = [];
  const tileWidth = Math.floor(width / TILES.across);
  const tileHeight = Math.floor(height / TILES.down);
  for (let ty = 0; ty < TILES.down; ty++) {
    for (let tx = 0; tx < TILES.across; tx++) {
      const columns = new Float64Array(tileWidth);
      const rows = new Float64Array(tileHeight);
      for (let y = 0; y < tileHeight; y++) {
        const row = (ty * tileHeight + y) * width + tx * tileWidth;
        for (let x = 0; x < tileWidth; x++) {
          const value = frame[row + x]!;
          columns[x]! += value / tileHeight;
          rows[y]! += value / tileWidth;
        }
      }
      tiles.push({ columns, rows });
    }
  }
  return tiles;
}

function spread(values: Float64Array) {
  let least = Infinity;
  let most = -Infinity;
  for (const value of values) {
    least = Math.min(least, value);
    most = Math.max(most, value);
  }
  return most - least;
}

/** The middle value (the mean of the two middle ones); 0 for none: nothing to follow is no movement. */
function median(values: number[]) {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * How far `next` is `previous` moved (in profile samples, to a tenth or so): the offset where the
 * two profiles, each less its mean, differ least, refined between its neighbours by a parabola.
 */
export function profileShift(previous: Float64Array, next: Float64Array) {
  const length = previous.length;
  const reach = Math.min(MAX_SHIFT, Math.floor(length / 4));
  const mean = (values: Float64Array) => values.reduce((a, b) => a + b, 0) / values.length;
  const a = mean(previous);
  const b = mean(next);
  const costs: number[] = [];
  for (let shift = -reach; shift <= reach; shift++) {
    let total = 0;
    let count = 0;
    for (let i = Math.max(0, -shift); i < Math.min(length, length - shift); i++) {
      total += Math.abs(previous[i]! - a - (next[i + shift]! - b));
      count += 1;
    }
    costs.push(total / count);
  }
  let best = 0;
  for (let i = 1; i < costs.length; i++) if (costs[i]! < costs[best]!) best = i;
  let offset = 0;
  if (best > 0 && best < costs.length - 1) {
    const [left, centre, right] = [costs[best - 1]!, costs[best]!, costs[best + 1]!];
    const curve = left - 2 * centre + right;
    if (curve > 0) offset = (0.5 * (left - right)) / curve;
  }
  return best - reach + offset;
}

/** The sound of each frame (`fps` a second) in dBFS: the RMS of signed 16-bit samples at `rate`. */
export function soundLevels(pcm: Buffer, rate: number, fps: number, frames: number) {
  const samples = Math.floor(pcm.length / 2);
  const levels: number[] = [];
  for (let i = 0; i < frames; i++) {
    const from = Math.round((i * rate) / fps);
    const to = Math.min(samples, Math.round(((i + 1) * rate) / fps));
    let power = 0;
    for (let s = from; s < to; s++) {
      const value = pcm.readInt16LE(s * 2) / 32_768;
      power += value * value;
    }
    levels.push(to > from && power > 0 ? 10 * Math.log10(power / (to - from)) : Number.NEGATIVE_INFINITY);
  }
  return levels;
}

/** Everything the rules need, in the units they speak: shares of the frame, dB, seconds. */
export function clipSignals(frames: FrameSignals, sound: number[] | null, fps: number): ClipSignals {
  return {
    fps,
    level: frames.level,
    lit: frames.lit,
    detail: frames.detail,
    change: frames.change,
    // Shifts as shares of the picture's width and height: the same whatever the grey copy's size.
    shiftX: frames.shiftX.map((s) => s / frames.width),
    shiftY: frames.shiftY.map((s) => s / frames.height),
    sound,
  };
}
