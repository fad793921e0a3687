// A small deterministic synthesiser for the built-in music (scripts/make-music.ts). Everything is
// plain arithmetic on Float32Arrays with a seeded random source: the same song description always
// renders the same samples. Sounds are written into loop buffers, where whatever rings past the end
// wraps round to the start, so each piece loops without a seam (the soundtrack loops a track that is
// shorter than the video, see app/render/plan.ts).

export const SAMPLE_RATE = 48_000;

/** mulberry32: a fast seeded source of numbers in [0, 1). */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const hzOf = (midiNote: number) => 440 * 2 ** ((midiNote - 69) / 12);

/** A stereo buffer that wraps: a sound that rings past the end carries on at the start. */
export class LoopBuffer {
  readonly left: Float32Array;
  readonly right: Float32Array;
  constructor(readonly length: number) {
    this.left = new Float32Array(length);
    this.right = new Float32Array(length);
  }
  /** Adds one sample at `index` (any integer: it wraps), placed by `pan` (-1 left … 1 right). */
  add(index: number, value: number, pan = 0) {
    const at = ((index % this.length) + this.length) % this.length;
    // Constant-power panning.
    const angle = ((pan + 1) * Math.PI) / 4;
    this.left[at]! += value * Math.cos(angle);
    this.right[at]! += value * Math.sin(angle);
  }
  mixInto(target: LoopBuffer, gain = 1) {
    for (let i = 0; i < this.length; i++) {
      target.left[i]! += this.left[i]! * gain;
      target.right[i]! += this.right[i]! * gain;
    }
  }
}

const TABLE_SIZE = 4096;

/** One cycle of a wave from its harmonics' amplitudes, for cheap oscillators. */
function waveTable(harmonics: number[]) {
  const table = new Float32Array(TABLE_SIZE + 1);
  for (let i = 0; i <= TABLE_SIZE; i++) {
    const phase = (2 * Math.PI * i) / TABLE_SIZE;
    table[i] = harmonics.reduce((sum, amplitude, n) => sum + amplitude * Math.sin((n + 1) * phase), 0);
  }
  const peak = table.reduce((max, v) => Math.max(max, Math.abs(v)), 0);
  return table.map((v) => v / peak);
}

// A saw with its top rolled off: warm rather than buzzy.
const SOFT_SAW = waveTable(Array.from({ length: 14 }, (_, n) => Math.exp(-n / 5) / (n + 1)));
const SINE = waveTable([1]);

/** Reads a table at a phase in cycles (any real number). */
function lookup(table: Float32Array, phase: number) {
  const position = (phase - Math.floor(phase)) * TABLE_SIZE;
  const index = position | 0;
  const fraction = position - index;
  return table[index]! + (table[index + 1]! - table[index]!) * fraction;
}

export type NoteOptions = { gain: number; pan?: number };

/**
 * A soft pad: three slightly detuned warm saws per note through a gentle low-pass, with slow
 * attack and release, so consecutive chords melt into each other.
 */
export function pad(
  out: LoopBuffer,
  start: number,
  seconds: number,
  notes: number[],
  { gain, pan = 0, cutoffHz = 1400, random }: NoteOptions & { cutoffHz?: number; random: () => number },
) {
  const attack = Math.min(0.8, seconds / 3) * SAMPLE_RATE;
  const release = 1.6 * SAMPLE_RATE;
  const held = seconds * SAMPLE_RATE;
  const smoothing = 1 - Math.exp((-2 * Math.PI * cutoffHz) / SAMPLE_RATE);
  for (const note of notes) {
    for (const [voice, cents] of [-7, 0, 7].entries()) {
      const step = (hzOf(note) * 2 ** (cents / 1200)) / SAMPLE_RATE;
      let phase = random();
      let low = 0;
      const voicePan = Math.max(-1, Math.min(1, pan + (voice - 1) * 0.5));
      for (let i = 0; i < held + release; i++) {
        const envelope = i < attack ? i / attack : i < held ? 1 : 1 - (i - held) / release;
        low += smoothing * (lookup(SOFT_SAW, phase) - low);
        phase += step;
        out.add(start + i, (low * envelope * envelope * gain) / notes.length, voicePan);
      }
    }
  }
}

/** A plucked string: a few harmonics that die away, the upper ones first, and a soft click. */
export function pluck(
  out: LoopBuffer,
  start: number,
  note: number,
  { gain, pan = 0, decaySeconds = 1.2 }: NoteOptions & { decaySeconds?: number },
) {
  const frequency = hzOf(note);
  const length = Math.round(decaySeconds * 6 * SAMPLE_RATE);
  const partials = [1, 0.5, 0.28, 0.14, 0.07]
    .map((amplitude, n) => ({ amplitude, ratio: n + 1, fall: Math.exp(-(1 + n * 1.5) / (decaySeconds * SAMPLE_RATE)) }))
    .filter((p) => frequency * p.ratio < 12_000);
  for (let i = 0; i < length; i++) {
    const t = i / SAMPLE_RATE;
    let value = 0;
    for (const partial of partials) {
      value += partial.amplitude * lookup(SINE, frequency * partial.ratio * t);
      partial.amplitude *= partial.fall;
    }
    out.add(start + i, value * Math.min(1, i / 96) * gain * 0.6, pan);
  }
}

/** A bell or electric piano by frequency modulation; `ratio` shapes the colour, `brightness` its bite. */
export function bell(
  out: LoopBuffer,
  start: number,
  note: number,
  {
    gain,
    pan = 0,
    ratio = 1,
    brightness = 1.5,
    decaySeconds = 1.5,
    tremoloHz = 0,
  }: NoteOptions & { ratio?: number; brightness?: number; decaySeconds?: number; tremoloHz?: number },
) {
  const frequency = hzOf(note);
  const length = Math.round(decaySeconds * 6 * SAMPLE_RATE);
  const fall = Math.exp(-1 / (decaySeconds * SAMPLE_RATE));
  const mellow = Math.exp(-1 / (decaySeconds * 0.4 * SAMPLE_RATE));
  let envelope = 1;
  let index = brightness / (2 * Math.PI);
  for (let i = 0; i < length; i++) {
    const t = i / SAMPLE_RATE;
    const modulator = lookup(SINE, frequency * ratio * t);
    const tremolo = tremoloHz ? 0.85 + 0.15 * lookup(SINE, tremoloHz * t) : 1;
    out.add(start + i, lookup(SINE, frequency * t + index * modulator) * envelope * Math.min(1, i / 240) * tremolo * gain, pan);
    envelope *= fall;
    index *= mellow;
  }
}

/** A round bass: a sine with a little second and third harmonic, gently saturated. */
export function bass(out: LoopBuffer, start: number, seconds: number, note: number, { gain }: NoteOptions) {
  const frequency = hzOf(note);
  const held = seconds * SAMPLE_RATE;
  const release = 0.08 * SAMPLE_RATE;
  for (let i = 0; i < held + release; i++) {
    const t = i / SAMPLE_RATE;
    const envelope = Math.min(1, i / 240) * (i < held ? 0.75 + 0.25 * Math.exp(-t * 6) : 0.75 * (1 - (i - held) / release));
    const phase = frequency * t;
    const raw = lookup(SINE, phase) + 0.3 * lookup(SINE, 2 * phase) + 0.1 * lookup(SINE, 3 * phase);
    out.add(start + i, Math.tanh(raw * 1.2) * envelope * gain, 0);
  }
}

/** A soft kick: a sine falling from 110 Hz to 45 Hz. */
export function kick(out: LoopBuffer, start: number, { gain }: NoteOptions) {
  const length = 0.45 * SAMPLE_RATE;
  let phase = 0;
  for (let i = 0; i < length; i++) {
    const t = i / SAMPLE_RATE;
    phase += (45 + 65 * Math.exp(-t * 28)) / SAMPLE_RATE;
    out.add(start + i, lookup(SINE, phase) * Math.exp(-t * 7) * Math.min(1, i / 48) * gain, 0);
  }
}

/**
 * Filtered noise with an envelope: hats (`highPassHz` high), claps and snares (lower, with `body`
 * a tone under it), shakers (`attackSeconds` soft).
 */
export function noiseHit(
  out: LoopBuffer,
  start: number,
  random: () => number,
  {
    gain,
    pan = 0,
    decaySeconds,
    highPassHz,
    lowPassHz = 16_000,
    attackSeconds = 0.001,
    bodyHz = 0,
  }: NoteOptions & { decaySeconds: number; highPassHz: number; lowPassHz?: number; attackSeconds?: number; bodyHz?: number },
) {
  const length = Math.round(decaySeconds * 6 * SAMPLE_RATE);
  const high = 1 - Math.exp((-2 * Math.PI * highPassHz) / SAMPLE_RATE);
  const low = 1 - Math.exp((-2 * Math.PI * lowPassHz) / SAMPLE_RATE);
  let belowHigh = 0;
  let smoothed = 0;
  let smoother = 0;
  for (let i = 0; i < length; i++) {
    const t = i / SAMPLE_RATE;
    const noise = random() * 2 - 1;
    belowHigh += high * (noise - belowHigh);
    // Two gentle low-pass stages: noise with its fizz taken off.
    smoothed += low * (noise - belowHigh - smoothed);
    smoother += low * (smoothed - smoother);
    const envelope = Math.min(1, t / attackSeconds) * Math.exp(-t / decaySeconds);
    const body = bodyHz ? 0.6 * lookup(SINE, bodyHz * t) * Math.exp(-t * 25) : 0;
    out.add(start + i, (smoother + body) * envelope * gain, pan);
  }
}

/** Multiplies the buffer by a gain curve: ducking a pad under the kick ("pumping"). */
export function applyGain(buffer: LoopBuffer, gainAt: (index: number) => number) {
  for (let i = 0; i < buffer.length; i++) {
    const g = gainAt(i);
    buffer.left[i]! *= g;
    buffer.right[i]! *= g;
  }
}
