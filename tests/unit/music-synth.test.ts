import { describe, expect, test } from "vitest";
import { encodeWav } from "~/media/music-mix.server";
import { LoopBuffer, SAMPLE_RATE, pluck, seededRandom } from "~/media/music-synth.server";

describe("the music synthesiser", () => {
  test("plays the same notes into the same samples every time", () => {
    const render = () => {
      const buffer = new LoopBuffer(SAMPLE_RATE / 4);
      pluck(buffer, 0, 69, { gain: 0.5 });
      return encodeWav(buffer, seededRandom(7));
    };
    expect(render().equals(render())).toBe(true);
  });

  test("wraps a sound that rings past the end of the loop round to its start", () => {
    const buffer = new LoopBuffer(1000);
    buffer.add(1005, 0.5);
    buffer.add(-1, 0.25, -1);
    expect(buffer.left[5]).toBeCloseTo(0.5 * Math.SQRT1_2, 6);
    expect(buffer.right[5]).toBeCloseTo(0.5 * Math.SQRT1_2, 6);
    expect(buffer.left[999]).toBeCloseTo(0.25, 6);
    expect(buffer.right[999]).toBeCloseTo(0, 6);
  });

  test("writes 16-bit stereo PCM WAV at 48 kHz", () => {
    const wav = encodeWav(new LoopBuffer(480), seededRandom(1));
    expect(wav.toString("ascii", 0, 4)).toBe("RIFF");
    expect(wav.toString("ascii", 8, 12)).toBe("WAVE");
    expect(wav.readUInt16LE(22)).toBe(2);
    expect(wav.readUInt32LE(24)).toBe(48_000);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(wav.length).toBe(44 + 480 * 4);
  });
});
