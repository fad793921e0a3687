// `npx tsx scripts/make-music.ts [slug…]`: composes and renders the built-in music into public/music/.
// Each piece is described below as chords, a form and a few instruments; app/media/music-synth.server.ts
// plays it and music-mix.server.ts adds reverb, masters it and writes the WAV (deterministically: the
// same description always gives the same file), the rendition step
// every uploaded track goes through levels it to -16 LUFS as 48 kHz stereo AAC, and the result is
// checked by analysis: not silent, no peak above -1 dBFS, loudness near the target.
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BUILT_IN_TRACKS } from "~/domain/built-in-tracks";
import { LOUDNESS_TARGET } from "~/media/loudness.server";
import { encodeWav, master, reverb } from "~/media/music-mix.server";
import { LoopBuffer, SAMPLE_RATE, applyGain, bass, bell, kick, noiseHit, pad, pluck, seededRandom } from "~/media/music-synth.server";
import { analyseTrack, normaliseTrack } from "~/media/track-audio.server";

const PUBLIC_DIR = fileURLToPath(new URL("../public/", import.meta.url));
const MAX_TOTAL_BYTES = 10 * 1024 * 1024;

type Layer = "pad" | "arp" | "bass" | "kick" | "snare" | "hats" | "shaker" | "melody";
type Chord = { root: number; tones: number[] };
type Voice = "pluck" | "bell" | "keys";

interface Song {
  seed: number;
  bpm: number;
  /** One chord per bar, repeated through the piece. */
  chords: Chord[];
  /** Sections in order, and what plays in each. The last leads back into the first: the piece loops. */
  form: { bars: number; layers: Layer[] }[];
  pad: { gain: number; cutoffHz: number };
  /** Indices into the bar's chord tones (an octave up past the end), per step; null rests. */
  arp: { voice: Voice; steps: (number | null)[]; octave: number; gain: number; decay: number };
  /** [step, length in steps, semitones above the root] on a 16-step bar. */
  bassLine: [number, number, number][];
  bassGain: number;
  /** 16-step patterns: a number is the hit's level. */
  drums: Partial<Record<"kick" | "snare" | "hats" | "shaker", (number | 0)[]>>;
  /** Duck the pad on every kick (the "pumping" of dance music). */
  pump?: boolean;
  melody: { voice: Voice; scale: number[]; low: number; high: number; rhythm: [number, number][]; gain: number };
  reverb: { wet: number; roomSize: number };
}

const NAMES: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };
/** "F#3" → 54 (MIDI), "Bb2" → 46. */
function note(name: string) {
  const match = /^([A-G])(#|b)?(-?\d)$/.exec(name);
  if (!match) throw new Error(`not a note: ${name}`);
  return 12 * (Number(match[3]) + 1) + NAMES[match[1]!]! + (match[2] === "#" ? 1 : match[2] === "b" ? -1 : 0);
}
const chord = (root: string, tones: string): Chord => ({ root: note(root), tones: tones.split(" ").map(note) });
const steps = (pattern: string) => [...pattern].map((c) => (c === "." ? 0 : Number(c) / 9));
const MAJOR = [0, 2, 4, 5, 7, 9, 11];
const MINOR = [0, 2, 3, 5, 7, 8, 10];

const SONGS: Record<string, Song> = {
  // Gentle: a slow major-seventh progression, a plucked arpeggio and a brushed shaker.
  "warm-sunday": {
    seed: 11,
    bpm: 84,
    chords: [chord("D2", "F#3 A3 C#4 E4"), chord("B1", "F#3 A3 B3 D4"), chord("G1", "F#3 G3 B3 D4"), chord("A1", "E3 A3 C#4 E4")],
    form: [
      { bars: 4, layers: ["pad", "arp"] },
      { bars: 8, layers: ["pad", "arp", "bass", "shaker"] },
      { bars: 8, layers: ["pad", "arp", "bass", "shaker", "kick", "melody"] },
      { bars: 8, layers: ["pad", "arp", "bass", "melody"] },
      { bars: 4, layers: ["pad", "arp"] },
    ],
    pad: { gain: 0.22, cutoffHz: 1100 },
    arp: { voice: "pluck", steps: [0, 2, 4, 2, 3, 1, 4, 2], octave: 12, gain: 0.28, decay: 0.9 },
    bassLine: [
      [0, 7, 0],
      [8, 6, 0],
      [14, 2, 7],
    ],
    bassGain: 0.34,
    drums: { shaker: steps("3.2.3.2.3.2.3.25"), kick: steps("6.........4.....") },
    melody: {
      voice: "bell",
      scale: MAJOR.map((s) => s + 2),
      low: note("F#4"),
      high: note("E5"),
      rhythm: [
        [0, 6],
        [6, 2],
        [8, 8],
      ],
      gain: 0.2,
    },
    reverb: { wet: 0.34, roomSize: 0.86 },
  },
  // Upbeat: I–V–vi–IV with a bouncing bass, claps on two and four, a bright bell tune.
  "confetti-pop": {
    seed: 23,
    bpm: 118,
    chords: [chord("C2", "E3 G3 C4 E4"), chord("G1", "D3 G3 B3 D4"), chord("A1", "E3 A3 C4 E4"), chord("F1", "F3 A3 C4 F4")],
    form: [
      { bars: 4, layers: ["pad", "arp", "hats"] },
      { bars: 8, layers: ["pad", "arp", "hats", "bass", "kick", "snare"] },
      { bars: 8, layers: ["pad", "arp", "hats", "bass", "kick", "snare", "melody"] },
      { bars: 4, layers: ["pad", "arp", "melody"] },
      { bars: 8, layers: ["pad", "arp", "hats", "bass", "kick", "snare", "melody"] },
      { bars: 4, layers: ["pad", "arp", "hats"] },
    ],
    pad: { gain: 0.16, cutoffHz: 1800 },
    arp: { voice: "pluck", steps: [0, 1, 2, 4, 2, 1, 3, 5, 0, 1, 2, 4, 5, 4, 2, 1], octave: 12, gain: 0.2, decay: 0.45 },
    bassLine: [
      [0, 2, 0],
      [2, 2, 12],
      [4, 2, 0],
      [6, 2, 12],
      [8, 2, 0],
      [10, 2, 12],
      [12, 2, 7],
      [14, 2, 12],
    ],
    bassGain: 0.3,
    drums: { kick: steps("9.....6.9......."), snare: steps("....8.......8..."), hats: steps("4.3.4.3.4.3.4.35") },
    melody: {
      voice: "bell",
      scale: MAJOR,
      low: note("G4"),
      high: note("G5"),
      rhythm: [
        [0, 3],
        [3, 3],
        [6, 2],
        [8, 4],
        [12, 4],
      ],
      gain: 0.17,
    },
    reverb: { wet: 0.22, roomSize: 0.8 },
  },
  // Tender: a slow F major progression on a soft piano-like bell over a dark pad, no drums.
  "slow-light": {
    seed: 37,
    bpm: 64,
    chords: [chord("F1", "A3 C4 E4 F4"), chord("E1", "G3 C4 E4 G4"), chord("D2", "F3 A3 C4 F4"), chord("Bb1", "F3 A3 D4 F4")],
    form: [
      { bars: 4, layers: ["pad", "arp"] },
      { bars: 8, layers: ["pad", "arp", "bass"] },
      { bars: 8, layers: ["pad", "arp", "bass", "melody"] },
      { bars: 4, layers: ["pad", "arp"] },
    ],
    pad: { gain: 0.24, cutoffHz: 800 },
    arp: { voice: "keys", steps: [0, null, 2, null, 3, null, 2, null], octave: 0, gain: 0.2, decay: 1.6 },
    bassLine: [[0, 16, 0]],
    bassGain: 0.24,
    drums: {},
    melody: {
      voice: "bell",
      scale: MAJOR.map((s) => s + 5),
      low: note("A4"),
      high: note("F5"),
      rhythm: [
        [0, 8],
        [8, 4],
        [12, 4],
      ],
      gain: 0.15,
    },
    reverb: { wet: 0.45, roomSize: 0.9 },
  },
  // Nostalgic: I–vi–ii–V on a warm electric piano with tremolo, a walking bass and brushes.
  "golden-years": {
    seed: 41,
    bpm: 90,
    chords: [chord("G1", "F#3 B3 D4 E4"), chord("E2", "G3 B3 D4 E4"), chord("A1", "G3 C4 E4 A4"), chord("D2", "F#3 C4 D4 A4")],
    form: [
      { bars: 4, layers: ["pad", "arp"] },
      { bars: 8, layers: ["pad", "arp", "bass", "snare", "kick"] },
      { bars: 8, layers: ["pad", "arp", "bass", "snare", "kick", "melody"] },
      { bars: 8, layers: ["pad", "arp", "bass", "shaker", "melody"] },
      { bars: 4, layers: ["pad", "arp"] },
    ],
    pad: { gain: 0.14, cutoffHz: 1000 },
    arp: { voice: "keys", steps: [null, null, 0, 1, null, 2, 3, null], octave: 0, gain: 0.17, decay: 0.9 },
    bassLine: [
      [0, 4, 0],
      [4, 4, 4],
      [8, 4, 7],
      [12, 4, 9],
    ],
    bassGain: 0.3,
    drums: { kick: steps("7.......5......."), snare: steps("....5.......5..."), shaker: steps("2.2.2.2.2.2.2.2.") },
    melody: {
      voice: "pluck",
      scale: MAJOR.map((s) => s + 7),
      low: note("D4"),
      high: note("D5"),
      rhythm: [
        [0, 4],
        [4, 2],
        [6, 2],
        [8, 6],
        [14, 2],
      ],
      gain: 0.26,
    },
    reverb: { wet: 0.3, roomSize: 0.84 },
  },
  // Danceable: minor vi–IV–I–V, four on the floor, off-beat hats and bass, a pumping pad.
  "party-lights": {
    seed: 53,
    bpm: 124,
    chords: [chord("A1", "E3 A3 C4 E4"), chord("F1", "F3 A3 C4 E4"), chord("C2", "E3 G3 C4 E4"), chord("G1", "D3 G3 B3 D4")],
    form: [
      { bars: 4, layers: ["pad", "arp", "hats"] },
      { bars: 8, layers: ["pad", "arp", "hats", "kick", "bass"] },
      { bars: 16, layers: ["pad", "arp", "hats", "kick", "bass", "snare", "melody"] },
      { bars: 4, layers: ["pad", "arp", "melody"] },
      { bars: 4, layers: ["pad", "arp", "hats", "kick", "bass", "snare"] },
      { bars: 4, layers: ["pad", "arp", "hats"] },
    ],
    pad: { gain: 0.2, cutoffHz: 2200 },
    arp: { voice: "pluck", steps: [0, 2, 4, 2, 1, 3, 5, 3, 0, 2, 4, 6, 5, 3, 2, 1], octave: 12, gain: 0.17, decay: 0.35 },
    bassLine: [
      [2, 2, 0],
      [6, 2, 0],
      [10, 2, 0],
      [14, 2, 12],
    ],
    bassGain: 0.36,
    drums: { kick: steps("9...9...9...9..."), snare: steps("....8.......8..."), hats: steps("2.6.2.6.2.6.2.6.") },
    pump: true,
    melody: {
      voice: "bell",
      scale: MINOR.map((s) => s + 9),
      low: note("E4"),
      high: note("E5"),
      rhythm: [
        [0, 2],
        [3, 3],
        [6, 2],
        [10, 2],
        [12, 4],
      ],
      gain: 0.15,
    },
    reverb: { wet: 0.24, roomSize: 0.8 },
  },
};

/**
 * An eight-bar tune over two turns of the chords: chord tones on the beat, small steps between.
 * The second half repeats the first until its last two bars, which answer it.
 */
function composeMelody(song: Song, random: () => number) {
  const { scale, low, high, rhythm } = song.melody;
  const inScale = (n: number) => scale.some((s) => (((n - s) % 12) + 12) % 12 === 0);
  const range = Array.from({ length: high - low + 1 }, (_, i) => low + i).filter(inScale);
  let previous = range[Math.floor(range.length / 2)]!;
  const compose = (c: Chord) => {
    const chordTones = new Set([c.root, ...c.tones].map((n) => n % 12));
    return rhythm.map(([step, length]) => {
      const onBeat = step % 4 === 0;
      const choices = range.filter((n) => Math.abs(n - previous) <= 5 && (!onBeat || chordTones.has(n % 12)));
      const pool = choices.length ? choices : range.filter((n) => chordTones.has(n % 12));
      // Nearer notes are likelier: a tune that steps rather than leaps.
      const weights = pool.map((n) => 1 / (1 + Math.abs(n - previous)));
      let pick = random() * weights.reduce((a, b) => a + b, 0);
      const chosen = pool.find((_, i) => (pick -= weights[i]!) <= 0) ?? pool[0]!;
      previous = chosen;
      return { step, length, note: chosen };
    });
  };
  const question = song.chords.map(compose);
  const answer = song.chords.map(compose);
  const half = Math.ceil(song.chords.length / 2);
  return [...question, ...question.slice(0, half), ...answer.slice(half)];
}

function play(out: LoopBuffer, voice: Voice, at: number, midi: number, gain: number, decay: number, pan: number) {
  if (voice === "pluck") pluck(out, at, midi, { gain, pan, decaySeconds: decay });
  else if (voice === "bell") bell(out, at, midi, { gain, pan, ratio: 3.5, brightness: 0.9, decaySeconds: decay });
  else bell(out, at, midi, { gain, pan, ratio: 1, brightness: 1.6, decaySeconds: decay, tremoloHz: 4.5 });
}

/** Plays a song into a loop buffer, ready to encode. */
function render(song: Song) {
  const random = seededRandom(song.seed);
  const stepSamples = (60 / song.bpm / 4) * SAMPLE_RATE;
  const bars = song.form.reduce((sum, s) => sum + s.bars, 0);
  const length = Math.round(bars * 16 * stepSamples);
  const pads = new LoopBuffer(length);
  const rest = new LoopBuffer(length);
  const melody = composeMelody(song, random);
  const kicks: number[] = [];
  // A player is never exactly on the grid: a few milliseconds either way, a little louder or softer.
  const humanise = () => Math.round((random() - 0.5) * 0.008 * SAMPLE_RATE);
  const velocity = () => 0.88 + random() * 0.24;

  let bar = 0;
  for (const section of song.form) {
    const has = (layer: Layer) => section.layers.includes(layer);
    for (let b = 0; b < section.bars; b++, bar++) {
      const barStart = Math.round(bar * 16 * stepSamples);
      const at = (step: number) => barStart + Math.round(step * stepSamples);
      const current = song.chords[bar % song.chords.length]!;
      if (has("pad"))
        pad(pads, barStart, (16 * stepSamples) / SAMPLE_RATE, current.tones, { gain: song.pad.gain, cutoffHz: song.pad.cutoffHz, random });
      if (has("arp")) {
        const tones = [...current.tones, ...current.tones.map((t) => t + 12)].map((t) => t + song.arp.octave);
        const stride = 16 / song.arp.steps.length;
        song.arp.steps.forEach((index, i) => {
          if (index === null) return;
          play(
            rest,
            song.arp.voice,
            at(i * stride) + humanise(),
            tones[index % tones.length]!,
            song.arp.gain * velocity(),
            song.arp.decay,
            i % 2 ? 0.35 : -0.35,
          );
        });
      }
      if (has("bass")) {
        for (const [step, steps, interval] of song.bassLine)
          bass(rest, at(step), (steps * stepSamples * 0.9) / SAMPLE_RATE, current.root + interval, { gain: song.bassGain });
      }
      if (has("melody")) {
        for (const n of melody[bar % melody.length]!) {
          play(
            rest,
            song.melody.voice,
            at(n.step) + humanise(),
            n.note,
            song.melody.gain * velocity(),
            Math.max(0.6, (n.length * stepSamples) / SAMPLE_RATE),
            0.1,
          );
        }
      }
      for (const part of ["kick", "snare", "hats", "shaker"] as const) {
        const pattern = song.drums[part];
        if (!pattern || !has(part)) continue;
        pattern.forEach((level, step) => {
          if (!level) return;
          const hit = at(step) + (part === "kick" ? 0 : humanise());
          if (part === "kick") {
            kick(rest, hit, { gain: 0.55 * level });
            kicks.push(hit);
          } else if (part === "snare")
            noiseHit(rest, hit, random, {
              gain: 0.32 * level,
              decaySeconds: 0.09,
              highPassHz: 900,
              lowPassHz: 7000,
              bodyHz: 190,
              pan: 0.05,
            });
          else if (part === "hats")
            noiseHit(rest, hit, random, { gain: 0.16 * level, decaySeconds: 0.03, highPassHz: 6000, lowPassHz: 14_000, pan: 0.3 });
          else
            noiseHit(rest, hit, random, {
              gain: 0.14 * level,
              decaySeconds: 0.05,
              highPassHz: 3500,
              lowPassHz: 9000,
              attackSeconds: 0.015,
              pan: -0.3,
            });
        });
      }
    }
  }
  if (song.pump && kicks.length) applyGain(pads, pumpCurve(kicks, length));
  const mix = new LoopBuffer(length);
  pads.mixInto(mix);
  rest.mixInto(mix);
  reverb(mix, { wet: song.reverb.wet, roomSize: song.reverb.roomSize }).mixInto(mix);
  master(mix);
  return { mix, random };
}

/** The pad's level dips to 40% on each kick and swells back over a beat. */
function pumpCurve(kicks: number[], length: number) {
  const curve = new Float32Array(length).fill(1);
  const swell = 0.2 * SAMPLE_RATE;
  for (const hit of kicks) {
    for (let i = 0; i < swell; i++) {
      const at = (hit + i) % length;
      curve[at] = Math.min(curve[at]!, 0.4 + 0.6 * Math.sin((Math.PI / 2) * (i / swell)));
    }
  }
  return (i: number) => curve[i]!;
}

const chosen = process.argv.slice(2);
await mkdir(path.join(PUBLIC_DIR, "music"), { recursive: true });
const work = await mkdtemp(path.join(tmpdir(), "chorus-music-"));
let total = 0;
let failed = false;
try {
  for (const track of BUILT_IN_TRACKS) {
    const song = SONGS[track.slug];
    if (!song) throw new Error(`no composition for ${track.slug}`);
    const output = path.join(PUBLIC_DIR, track.file);
    if (chosen.length && !chosen.includes(track.slug)) {
      total += (await stat(output)).size;
      continue;
    }
    const started = Date.now();
    const { mix, random } = render(song);
    const wav = path.join(work, `${track.slug}.wav`);
    await writeFile(wav, encodeWav(mix, random));
    await normaliseTrack(wav, output, 0, work, { bitrate: "128k" });
    // Listened to by analysis: the file as shipped, decoded again.
    const heard = await analyseTrack(output, 0, work);
    const bytes = (await stat(output)).size;
    total += bytes;
    const problems = [
      heard.loudnessLufs < -30 ? "too quiet" : null,
      heard.truePeakDb >= -1 ? `peaks at ${heard.truePeakDb} dBTP` : null,
      Math.abs(heard.loudnessLufs - LOUDNESS_TARGET.integrated) > 1 ? `loudness ${heard.loudnessLufs} LUFS` : null,
    ].filter(Boolean);
    failed ||= problems.length > 0;
    console.log(
      `${track.title.padEnd(14)} ${heard.durationSeconds.toFixed(1).padStart(6)} s  ${heard.loudnessLufs.toFixed(1)} LUFS  ` +
        `${heard.truePeakDb.toFixed(1)} dBTP  ${(bytes / 1024 / 1024).toFixed(2)} MB  ${((Date.now() - started) / 1000).toFixed(1)} s` +
        (problems.length ? `  PROBLEM: ${problems.join(", ")}` : ""),
    );
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
console.log(`total ${(total / 1024 / 1024).toFixed(2)} MB`);
if (total > MAX_TOTAL_BYTES) {
  console.error(`The built-in music must stay under ${MAX_TOTAL_BYTES / 1024 / 1024} MB.`);
  failed = true;
}
process.exit(failed ? 1 : 0);
