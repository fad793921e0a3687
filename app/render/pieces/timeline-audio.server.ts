// The clips' sound laid out on the video's timeline, mixed in Node by streaming each segment's
// WAV: memory stays flat and no command line grows with the number of segments (docs/rendering.md).
// Where two segments overlap, their sound crossfades exactly as their pictures do.

import { type FileHandle, open } from "node:fs/promises";
import { endianness } from "node:os";
import type { RenderPlan, Segment } from "../plan";
import { AUDIO_CHANNELS, AUDIO_RATE, samplesForFrames } from "./encoding";

/** One segment's sound on the timeline, in sample frames (one sample per channel). */
export interface AudioSpan {
  file: string;
  start: number;
  length: number;
  /** Samples at the start that crossfade with the previous segment, and at the end with the next. */
  fadeIn: number;
  fadeOut: number;
}

/**
 * Whether anything of the segment is heard: a clip with its own sound. Every other segment's WAV is
 * silence, so the soundtrack neither waits for it nor reads it.
 */
export const segmentIsHeard = (segment: Segment) => segment.kind === "clip" && segment.hasAudio;

/**
 * Where each segment's WAV goes on the timeline (pure). `files` holds one entry per segment, null
 * for a silent one (segmentIsHeard), which gets no span.
 */
export function audioSpans(plan: Pick<RenderPlan, "segments" | "profile">, files: readonly (string | null)[]): AudioSpan[] {
  if (files.length !== plan.segments.length) throw new RangeError(`${files.length} audio files for ${plan.segments.length} segments`);
  const at = (frame: number) => samplesForFrames(frame, plan.profile.fps);
  return plan.segments.flatMap((segment, i) => {
    const file = files[i];
    if (!file) return [];
    const start = at(segment.startFrame);
    const end = at(segment.startFrame + segment.frames);
    return [
      {
        file,
        start,
        length: end - start,
        fadeIn: at(segment.startFrame + segment.headFrames) - start,
        fadeOut: end - at(segment.startFrame + segment.frames - segment.tailFrames),
      },
    ];
  });
}

/**
 * Gain of a span's sample at `position`: rising over the head, falling over the tail, as the
 * crossfade's picture does, so the two sides of an overlap always add up to one.
 */
export function spanGain(span: Pick<AudioSpan, "length" | "fadeIn" | "fadeOut">, position: number) {
  if (position < span.fadeIn) return (position + 1) / (span.fadeIn + 1);
  const intoTail = position - (span.length - span.fadeOut);
  if (intoTail >= 0) return 1 - (intoTail + 1) / (span.fadeOut + 1);
  return 1;
}

const BYTES_PER_FRAME = 2 * AUDIO_CHANNELS;
if (endianness() !== "LE") throw new Error("Mixing the soundtrack needs a little-endian CPU");
const CHUNK_FRAMES = 16_384;

interface OpenWav {
  handle: FileHandle;
  dataOffset: number;
  dataFrames: number;
}

/** Writes the mixed timeline of `totalSamples` sample frames as 48 kHz stereo 16-bit WAV. */
export async function mixTimelineAudio(spans: readonly AudioSpan[], totalSamples: number, output: string, signal?: AbortSignal) {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out = await open(output, "w");
  const opened = new Map<AudioSpan, OpenWav>();
  try {
    await out.write(wavHeader(totalSamples), 0, 44, 0);
    const mix = new Float32Array(CHUNK_FRAMES * AUDIO_CHANNELS);
    // WAV is little-endian, as are the CPUs we run on: the samples are read and written as they lie.
    const input = Buffer.alloc(CHUNK_FRAMES * BYTES_PER_FRAME);
    const inputSamples = new Int16Array(input.buffer, input.byteOffset, CHUNK_FRAMES * AUDIO_CHANNELS);
    const result = Buffer.alloc(CHUNK_FRAMES * BYTES_PER_FRAME);
    const resultSamples = new Int16Array(result.buffer, result.byteOffset, CHUNK_FRAMES * AUDIO_CHANNELS);
    let first = 0; // spans before this one have ended
    for (let chunkStart = 0; chunkStart < totalSamples; chunkStart += CHUNK_FRAMES) {
      signal?.throwIfAborted();
      const chunkEnd = Math.min(totalSamples, chunkStart + CHUNK_FRAMES);
      mix.fill(0);
      while (first < sorted.length && sorted[first]!.start + sorted[first]!.length <= chunkStart) {
        await closeSpan(sorted[first]!, opened);
        first += 1;
      }
      for (let i = first; i < sorted.length && sorted[i]!.start < chunkEnd; i += 1) {
        const span = sorted[i]!;
        const from = Math.max(chunkStart, span.start);
        const to = Math.min(chunkEnd, span.start + span.length);
        if (to <= from) continue;
        const wav = opened.get(span) ?? (await openSpan(span, opened));
        const readFrames = Math.max(0, Math.min(to - span.start, wav.dataFrames) - (from - span.start));
        if (readFrames === 0) continue; // past the end of a short file: silence
        const { bytesRead } = await wav.handle.read(
          input,
          0,
          readFrames * BYTES_PER_FRAME,
          wav.dataOffset + (from - span.start) * BYTES_PER_FRAME,
        );
        const values = Math.floor(bytesRead / BYTES_PER_FRAME) * AUDIO_CHANNELS;
        const offset = (from - chunkStart) * AUDIO_CHANNELS;
        const position = from - span.start;
        const plain = position >= span.fadeIn && position + values / AUDIO_CHANNELS <= span.length - span.fadeOut;
        for (let v = 0; v < values; v += 1) {
          // Most of a segment plays at full volume: only the crossfades compute a gain.
          const gain = plain ? 1 : spanGain(span, position + Math.floor(v / AUDIO_CHANNELS));
          mix[offset + v]! += inputSamples[v]! * gain;
        }
      }
      const frames = chunkEnd - chunkStart;
      // Int16Array stores wrap around instead of clipping: clip first.
      for (let s = 0; s < frames * AUDIO_CHANNELS; s += 1) {
        const value = mix[s]!;
        resultSamples[s] = value > 32767 ? 32767 : value < -32768 ? -32768 : Math.round(value);
      }
      await out.write(result, 0, frames * BYTES_PER_FRAME, 44 + chunkStart * BYTES_PER_FRAME);
    }
  } finally {
    await Promise.all([...opened.values()].map((wav) => wav.handle.close()));
    await out.close();
  }
}

async function openSpan(span: AudioSpan, opened: Map<AudioSpan, OpenWav>) {
  const handle = await open(span.file, "r");
  try {
    const wav = { handle, ...(await readWavLayout(handle, span.file)) };
    opened.set(span, wav);
    return wav;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function closeSpan(span: AudioSpan, opened: Map<AudioSpan, OpenWav>) {
  const wav = opened.get(span);
  if (!wav) return;
  opened.delete(span);
  await wav.handle.close();
}

/** Finds the PCM data of a WAV file, checking it is the 48 kHz stereo 16-bit every segment writes. */
async function readWavLayout(handle: FileHandle, name: string) {
  const { size } = await handle.stat();
  const head = Buffer.alloc(12);
  await handle.read(head, 0, 12, 0);
  if (head.toString("latin1", 0, 4) !== "RIFF" || head.toString("latin1", 8, 12) !== "WAVE") throw new Error(`${name} is not a WAV file`);
  let offset = 12;
  let format: { channels: number; rate: number; bits: number } | null = null;
  const chunk = Buffer.alloc(24);
  while (offset + 8 <= size) {
    await handle.read(chunk, 0, 24, offset);
    const id = chunk.toString("latin1", 0, 4);
    const length = chunk.readUInt32LE(4);
    if (id === "fmt ") format = { channels: chunk.readUInt16LE(10), rate: chunk.readUInt32LE(12), bits: chunk.readUInt16LE(22) };
    if (id === "data") {
      if (!format || format.channels !== AUDIO_CHANNELS || format.rate !== AUDIO_RATE || format.bits !== 16) {
        throw new Error(`${name} is not 48 kHz stereo 16-bit PCM`);
      }
      // A writer that could not seek back leaves the length unset: the file's end is the data's end.
      const available = size - (offset + 8);
      return { dataOffset: offset + 8, dataFrames: Math.floor(Math.min(length, available) / BYTES_PER_FRAME) };
    }
    offset += 8 + length + (length % 2);
  }
  throw new Error(`${name} has no audio data`);
}

function wavHeader(frames: number) {
  const dataBytes = frames * BYTES_PER_FRAME;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(AUDIO_CHANNELS, 22);
  header.writeUInt32LE(AUDIO_RATE, 24);
  header.writeUInt32LE(AUDIO_RATE * BYTES_PER_FRAME, 28);
  header.writeUInt16LE(BYTES_PER_FRAME, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(dataBytes, 40);
  return header;
}
