import { describe, expect, test } from "vitest";
import { WAVEFORM_POINTS, waveformBars, waveformPeaks } from "~/domain/waveform";

describe("waveform peaks", () => {
  test("takes the loudest sample of each even slice, either sign", () => {
    const samples = [0.1, -0.5, 0.2, 0.3, -0.9, 0.4, 0, 0.05];
    expect(waveformPeaks(samples, 4)).toEqual([0.5, 0.3, 0.9, 0.05]);
  });

  test("gives 200 values from 0 to 1 by default, clipping overs at 1", () => {
    const samples = Float32Array.from({ length: 48_000 }, (_, i) => 1.2 * Math.sin(i / 10));
    const peaks = waveformPeaks(samples);
    expect(peaks).toHaveLength(WAVEFORM_POINTS);
    expect(Math.max(...peaks)).toBe(1);
    expect(Math.min(...peaks)).toBeGreaterThan(0.9);
  });

  test("still gives every point for a sound shorter than the points, and none for nothing", () => {
    expect(waveformPeaks([0.25, -0.75], 4)).toEqual([0.25, 0.25, 0.75, 0.75]);
    expect(waveformPeaks([], 4)).toEqual([]);
  });
});

describe("waveform bars", () => {
  test("merges neighbours by their maximum and scales the loudest to full height", () => {
    expect(waveformBars([0.1, 0.2, 0.4, 0.1], 2)).toEqual([0.5, 1]);
  });

  test("leaves a silent track flat", () => {
    expect(waveformBars([0, 0, 0], 3)).toEqual([0, 0, 0]);
  });
});
