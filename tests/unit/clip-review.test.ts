import { describe, expect, test } from "vitest";
import { adviceForContributor, adviceForOrganiser } from "~/domain/clip-advice";
import { type ClipSignals, deadAirTrim, reviewClip } from "~/domain/clip-review";
import { defaultTrimNote } from "~/domain/default-trim";

const FPS = 30;

/** A stretch of a clip, as the signals of each of its frames. */
type Stretch = {
  seconds: number;
  /** What the picture does: black, flat (a thumb over the lens), still (frozen), or moving. */
  picture: "black" | "flat" | "still" | "moving";
  /** The speech band's level in dBFS (-Infinity: digital silence). */
  sound?: number;
  /** Mean brightness, for a picture that is not black. */
  level?: number;
  /** Frame-to-frame shift of the picture, as shares of the frame, alternating (a tremble). */
  tremble?: number;
  /** Smooth movement of the picture each frame, as a share of the frame (a pan). */
  pan?: number;
};

function clip(...stretches: Stretch[]): { signals: ClipSignals; duration: number } {
  const signals: ClipSignals = { fps: FPS, level: [], lit: [], detail: [], change: [], shiftX: [], shiftY: [], sound: [] };
  for (const stretch of stretches) {
    const frames = Math.round(stretch.seconds * FPS);
    for (let i = 0; i < frames; i++) {
      const black = stretch.picture === "black";
      const n = signals.level.length;
      signals.level.push(black ? 0 : (stretch.level ?? 0.45));
      signals.lit.push(black ? 0 : 0.9);
      signals.detail.push(black || stretch.picture === "flat" ? 0.2 : 9);
      signals.change.push(n === 0 ? Number.NaN : stretch.picture === "moving" ? 3 : 0.05);
      signals.shiftX.push((stretch.tremble ? (n % 2 ? 1 : -1) * stretch.tremble : 0) + (stretch.pan ?? 0));
      signals.shiftY.push(stretch.tremble ? (n % 2 ? -1 : 1) * stretch.tremble : 0);
      signals.sound!.push(stretch.sound ?? Number.NEGATIVE_INFINITY);
    }
  }
  return { signals, duration: signals.level.length / FPS };
}

const speech = { sound: -24 } as const;
/** A word's worth of sound: longer than a click. */
const moving = (seconds: number, extra: Partial<Stretch> = {}): Stretch => ({ seconds, picture: "moving", ...speech, ...extra });

describe("a clip's dead air becomes its default trim", () => {
  test("2 s of black silence at each end of 4 s of someone speaking are left out, with a breath kept at each side", () => {
    const { signals, duration } = clip({ seconds: 2, picture: "black" }, moving(4), { seconds: 2, picture: "black" });
    const trim = deadAirTrim(signals, duration);
    expect(trim.trimStart).toBeCloseTo(1.9, 2);
    expect(trim.trimEnd).toBeCloseTo(6.2, 2);
    expect((trim.trimEnd ?? duration) - trim.trimStart).toBeLessThan(4.5);
  });

  test("a thumb over the lens and a frozen picture with nothing said are dead air too", () => {
    const { signals, duration } = clip({ seconds: 1.5, picture: "flat", level: 0.3 }, moving(3), { seconds: 1, picture: "still" });
    const trim = deadAirTrim(signals, duration);
    expect(trim.trimStart).toBeCloseTo(1.4, 2);
    expect(trim.trimEnd).toBeCloseTo(4.7, 2);
  });

  test("speech over a black picture is never cut", () => {
    const { signals, duration } = clip({ seconds: 2, picture: "black", ...speech }, moving(3));
    expect(deadAirTrim(signals, duration)).toEqual({ trimStart: 0, trimEnd: null });
  });

  test("movement without a sound is never cut", () => {
    const { signals, duration } = clip({ seconds: 2, picture: "moving" }, moving(2), { seconds: 2, picture: "moving" });
    expect(deadAirTrim(signals, duration)).toEqual({ trimStart: 0, trimEnd: null });
  });

  test("steady background noise is no speech: a black start under it is still cut", () => {
    const noisy = { sound: -42 };
    const { signals, duration } = clip({ seconds: 2, picture: "black", ...noisy }, moving(3, { sound: -20 }), {
      seconds: 1,
      picture: "moving",
      ...noisy,
    });
    const trim = deadAirTrim(signals, duration);
    expect(trim.trimStart).toBeCloseTo(1.9, 2);
    expect(trim.trimEnd).toBeNull();
  });

  test("the tap that stopped the recording is cut, with the jolt after it", () => {
    // Someone speaks, goes quiet while the picture still moves, then taps the screen (a click).
    const { signals, duration } = clip(
      moving(3),
      { seconds: 0.5, picture: "moving" },
      { seconds: 0.07, picture: "moving", sound: -20 },
      { seconds: 0.2, picture: "moving" },
    );
    const trim = deadAirTrim(signals, duration);
    expect(trim.trimStart).toBe(0);
    expect(trim.trimEnd).toBeCloseTo(3.5, 2);
  });

  test("a click in the middle of a clip is left alone, and so is dead air under 0.3 s", () => {
    const { signals, duration } = clip(
      { seconds: 0.2, picture: "black" },
      moving(1.5),
      { seconds: 1, picture: "moving" },
      { seconds: 0.07, picture: "moving", sound: -20 },
      { seconds: 1, picture: "moving" },
      { seconds: 0.25, picture: "still" },
    );
    expect(deadAirTrim(signals, duration)).toEqual({ trimStart: 0, trimEnd: null });
  });

  test("a clip with nothing happening at all, or too little to keep a second, stays whole", () => {
    const dead = clip({ seconds: 5, picture: "black" });
    expect(deadAirTrim(dead.signals, dead.duration)).toEqual({ trimStart: 0, trimEnd: null });
    const blink = clip({ seconds: 2, picture: "black" }, moving(0.3), { seconds: 2, picture: "black" });
    expect(deadAirTrim(blink.signals, blink.duration)).toEqual({ trimStart: 0, trimEnd: null });
  });
});

describe("advice about what is kept of a clip", () => {
  test("a well-lit, steady clip of someone speaking gets none", () => {
    const { signals, duration } = clip(moving(5));
    expect(reviewClip(signals, duration)).toEqual({ trimStart: 0, trimEnd: null, advice: [] });
  });

  test("very dark, very quiet, very short and very shaky are each told", () => {
    const dark = clip(moving(4, { level: 0.06 }));
    expect(reviewClip(dark.signals, dark.duration).advice).toEqual(["dark"]);
    const quiet = clip(moving(4, { sound: -55 }));
    expect(reviewClip(quiet.signals, quiet.duration).advice).toEqual(["quiet"]);
    const short = clip(moving(1.6));
    expect(reviewClip(short.signals, short.duration).advice).toEqual(["short"]);
    const shaky = clip(moving(4, { tremble: 0.03 }));
    expect(reviewClip(shaky.signals, shaky.duration).advice).toEqual(["shaky"]);
  });

  test("a steady pan is not shake; a small tremble is not very shaky", () => {
    const pan = clip(moving(4, { pan: 0.01 }));
    expect(reviewClip(pan.signals, pan.duration).advice).toEqual([]);
    const tremble = clip(moving(4, { tremble: 0.004 }));
    expect(reviewClip(tremble.signals, tremble.duration).advice).toEqual([]);
  });

  test("is judged on what the default trim keeps: a clip that is mostly dead air is short once trimmed", () => {
    const { signals, duration } = clip({ seconds: 3, picture: "black" }, moving(1.2), { seconds: 3, picture: "black" });
    const review = reviewClip(signals, duration);
    expect(review.trimStart).toBeCloseTo(2.9, 2);
    expect(review.advice).toEqual(["short"]);
  });

  test("a clip without sound is never called quiet", () => {
    const { signals, duration } = clip(moving(4));
    expect(reviewClip({ ...signals, sound: null }, duration).advice).toEqual([]);
  });

  test("is said in one plain sentence to the contributor, and to the organiser with who could record it again", () => {
    expect(adviceForContributor(["dark"])).toBe("It's quite dark — want to record it again?");
    expect(adviceForContributor(["short"])).toBe("It's very short — want to record a longer one?");
    expect(adviceForContributor(["shaky", "dark", "quiet"])).toBe("It's quite dark, very quiet and quite shaky — want to record it again?");
    expect(adviceForContributor([])).toBeNull();
    expect(adviceForContributor(["blurry"])).toBeNull();
    expect(adviceForOrganiser(["dark", "quiet"], "Ana")).toBe("Quite dark and very quiet — Ana could record it again.");
    expect(adviceForOrganiser(["short"], " ")).toBe("Very short — Whoever sent it could record it again.");
  });
});

describe("what the organiser is told about a default trim", () => {
  const found = { durationSeconds: 8, defaultTrim: { trimStart: 1.9, trimEnd: 6.2 } };

  test("while it is in use: what it left out, and the whole clip offered", () => {
    expect(defaultTrimNote({ ...found, trimStart: 1.9, trimEnd: 6.2, trimChosen: false })).toEqual({
      text: "Trimmed by itself: 1.9 s at the start and 1.8 s at the end had nothing happening, so it is left out.",
      offer: "whole",
    });
  });

  test("once the organiser changed it: the suggestion, and the way back to it", () => {
    expect(defaultTrimNote({ ...found, trimStart: 0, trimEnd: null, trimChosen: true })).toEqual({
      text: "We suggested leaving out 1.9 s at the start and 1.8 s at the end, where nothing happens.",
      offer: "default",
    });
  });

  test("nothing when nothing was found to leave out, or the clip was never analysed", () => {
    expect(
      defaultTrimNote({ durationSeconds: 8, defaultTrim: { trimStart: 0, trimEnd: null }, trimStart: 0, trimEnd: null, trimChosen: false }),
    ).toBeNull();
    expect(defaultTrimNote({ durationSeconds: 8, defaultTrim: null, trimStart: 2, trimEnd: null, trimChosen: true })).toBeNull();
  });
});
