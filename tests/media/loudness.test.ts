import { describe, expect, test } from "vitest";
import { gainToTarget } from "~/media/loudness.server";

describe("the fixed gain for short clips", () => {
  test("lifts a quiet clip to -16 LUFS", () => {
    expect(gainToTarget({ integrated: -21.75, truePeak: -17.93 })).toBe(5.75);
  });
  test("stops where the peaks would pass -1.5 dBTP", () => {
    expect(gainToTarget({ integrated: -30, truePeak: -6 })).toBe(4.5);
  });
  test("turns a loud clip down", () => {
    expect(gainToTarget({ integrated: -9, truePeak: -0.2 })).toBe(-7);
  });
  test("leaves silence alone and never lifts noise by more than 20 dB", () => {
    expect(gainToTarget({ integrated: null, truePeak: null })).toBe(0);
    expect(gainToTarget({ integrated: -60, truePeak: -45 })).toBe(20);
  });
});
