// The mix stage of the built-in music (scripts/make-music.ts): reverb over a loop, mastering and
// the WAV file, after the instruments of music-synth.server.ts have played into a loop buffer.
import { LoopBuffer, SAMPLE_RATE } from "./music-synth.server";

// Freeverb's tunings at 44.1 kHz, scaled to our rate; the right channel's lines are a little longer.
const COMBS = [1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617];
const ALLPASSES = [556, 441, 341, 225];
const STEREO_SPREAD = 23;

/**
 * Freeverb (Schroeder–Moorer): eight damped combs into four all-passes per channel. It runs over
 * the loop twice and keeps the second pass, so the tail of the end rings on into the start.
 */
export function reverb(send: LoopBuffer, { roomSize = 0.84, damping = 0.3, wet = 0.3 } = {}) {
  const scale = SAMPLE_RATE / 44_100;
  const out = new LoopBuffer(send.length);
  for (const [channel, spread] of [
    [0, 0],
    [1, STEREO_SPREAD],
  ] as const) {
    const combs = COMBS.map((n) => ({ line: new Float32Array(Math.round((n + spread) * scale)), at: 0, store: 0 }));
    const allpasses = ALLPASSES.map((n) => ({ line: new Float32Array(Math.round((n + spread) * scale)), at: 0 }));
    const target = channel === 0 ? out.left : out.right;
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < send.length; i++) {
        const input = (send.left[i]! + send.right[i]!) * 0.015;
        let sum = 0;
        for (const comb of combs) {
          const delayed = comb.line[comb.at]!;
          comb.store = delayed * (1 - damping) + comb.store * damping;
          comb.line[comb.at] = input + comb.store * roomSize;
          comb.at = comb.at + 1 === comb.line.length ? 0 : comb.at + 1;
          sum += delayed;
        }
        for (const allpass of allpasses) {
          const delayed = allpass.line[allpass.at]!;
          allpass.line[allpass.at] = sum + delayed * 0.5;
          allpass.at = allpass.at + 1 === allpass.line.length ? 0 : allpass.at + 1;
          sum = delayed - sum;
        }
        if (pass === 1) target[i] = sum * wet;
      }
    }
  }
  return out;
}

/** Scales to a peak of `peak` after a gentle saturation that rounds off the loudest hits. */
export function master(buffer: LoopBuffer, peak = 0.89) {
  let loudest = 0;
  for (let i = 0; i < buffer.length; i++) loudest = Math.max(loudest, Math.abs(buffer.left[i]!), Math.abs(buffer.right[i]!));
  const drive = loudest ? 1.6 / loudest : 1;
  const norm = peak / Math.tanh(1.6);
  for (let i = 0; i < buffer.length; i++) {
    buffer.left[i] = Math.tanh(buffer.left[i]! * drive) * norm;
    buffer.right[i] = Math.tanh(buffer.right[i]! * drive) * norm;
  }
}

/** 16-bit PCM WAV with triangular dither, the format every encoder reads. */
export function encodeWav(buffer: LoopBuffer, random: () => number) {
  const frames = buffer.length;
  const bytes = Buffer.alloc(44 + frames * 4);
  bytes.write("RIFF", 0);
  bytes.writeUInt32LE(36 + frames * 4, 4);
  bytes.write("WAVEfmt ", 8);
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20); // PCM
  bytes.writeUInt16LE(2, 22); // stereo
  bytes.writeUInt32LE(SAMPLE_RATE, 24);
  bytes.writeUInt32LE(SAMPLE_RATE * 4, 28);
  bytes.writeUInt16LE(4, 32);
  bytes.writeUInt16LE(16, 34);
  bytes.write("data", 36);
  bytes.writeUInt32LE(frames * 4, 40);
  const toInt = (value: number) => Math.max(-32768, Math.min(32767, Math.round(value * 32767 + random() - random())));
  for (let i = 0; i < frames; i++) {
    bytes.writeInt16LE(toInt(buffer.left[i]!), 44 + i * 4);
    bytes.writeInt16LE(toInt(buffer.right[i]!), 46 + i * 4);
  }
  return bytes;
}
