import { describe, expect, test } from "vitest";
import { preparedLine, remainingLine, roughDuration, type Ahead } from "~/components/arrange/render-ahead";
import { estimateSeconds, remainingWork, secondsPerFrame } from "~/render/estimate";
import { piecesOf, planRender, type PlanMedia, type PlanTheme } from "~/render/plan";

const theme: PlanTheme = {
  id: "theme-1",
  introUrl: "/themes/golden/intro.jpg",
  outroUrl: "/themes/golden/outro.jpg",
  fontUrl: "/fonts/themes/Fraunces-SemiBold.ttf",
  fontColor: "#ffffff",
  fontSize: 48,
  fontLineSpacing: 1.2,
  textBoxColor: "#00000099",
  textBoxScale: 1,
  isCollage: false,
  scenes: [],
};

const photo = (id: string, position: number): PlanMedia => ({
  id,
  kind: "photo",
  status: "ready",
  renditionKey: `r/${id}.jpg`,
  durationSeconds: null,
  trimStart: 0,
  trimEnd: null,
  caption: "",
  contributorName: "Ana",
  hidden: false,
  archived: false,
  position,
  hasAudio: false,
});

describe("the pieces a render counts", () => {
  test("each scene's own piece and its parts, both title cards, every crossfade and the soundtrack, each once", () => {
    const plan = planRender({
      intro: { heading: "Happy birthday", subheading: "" },
      outro: { heading: "With love", subheading: "Ana" },
      theme,
      media: [photo("a", 1), photo("b", 2)],
      track: null,
      resolution: "720p",
    });
    const pieces = piecesOf(plan);
    expect(pieces.map((p) => p.kind)).toEqual([
      ...["title", "card"],
      ...["photo", "caption", "plain"],
      ...["photo", "caption", "plain"],
      ...["title", "card"],
      ...["transition", "transition", "transition", "soundtrack"],
    ]);
    // A scene's pieces make its frames once: its head and tail, then each part's own.
    const [intro, card] = pieces;
    expect(intro!.frames + card!.frames).toBe(plan.segments[0]!.frames);
    expect(new Set(pieces.map((p) => p.key)).size).toBe(pieces.length);
    expect(pieces.at(-1)).toMatchObject({ key: plan.soundtrackKey, frames: plan.totalFrames });
  });
});

describe("the time estimate", () => {
  const timings = [
    { kind: "photo", frames: 150, renderSeconds: 6 },
    { kind: "clip", frames: 50, renderSeconds: 4 },
    { kind: "transition", frames: 15, renderSeconds: 1.5 },
    { kind: "soundtrack", frames: 600, renderSeconds: 3 },
  ];

  test("speed is measured per kind of piece: seconds over frames of the pieces timed", () => {
    expect(secondsPerFrame(timings)).toEqual({ scene: 10 / 200, crossfade: 0.1, soundtrack: 0.005 });
    // Broken figures are left out rather than trusted.
    expect(secondsPerFrame([{ kind: "photo", frames: 0, renderSeconds: 5 }]).scene).toBeNull();
  });

  test("scenes and crossfades share the slots; the soundtrack runs beside them", () => {
    const missing = [
      { kind: "photo" as const, frames: 100 },
      { kind: "clip" as const, frames: 100 },
      { kind: "transition" as const, frames: 15 },
      { kind: "soundtrack" as const, frames: 1000 },
    ];
    // (200 × 0.05 + 15 × 0.1) / 2 + 1000 × 0.005 = 5.75 + 5
    expect(estimateSeconds(missing, timings, 2)).toBe(11);
    expect(estimateSeconds(missing, timings, 1)).toBe(17);
    expect(estimateSeconds([], timings, 2)).toBe(0);
  });

  test("no timing of a kind still to make: no estimate, rather than a made-up one", () => {
    const noCrossfades = timings.filter((t) => t.kind !== "transition");
    expect(estimateSeconds([{ kind: "transition", frames: 15 }], noCrossfades, 2)).toBeNull();
    expect(estimateSeconds([{ kind: "photo", frames: 15 }], noCrossfades, 2)).not.toBeNull();
    expect(estimateSeconds([{ kind: "photo", frames: 15 }], [], 2)).toBeNull();
  });

  test("what is left is counted by kind, a scene once however many of its pieces are missing, with the video frames still to encode", () => {
    expect(
      remainingWork([
        { kind: "clip", frames: 30, scene: 1 },
        { kind: "caption", frames: 60, scene: 1 },
        { kind: "card", frames: 90, scene: 2 },
        { kind: "transition", frames: 15, scene: null },
        { kind: "transition", frames: 15, scene: null },
        { kind: "soundtrack", frames: 900, scene: null },
      ]),
    ).toEqual({ scenes: 2, crossfades: 2, soundtrack: true, videoFrames: 210 });
  });
});

describe("the render panel's words", () => {
  const ahead = (changes: Partial<Ahead>): Ahead => ({
    reusable: 5,
    pieces: 10,
    scenesPrepared: 5,
    scenes: 5,
    remaining: { scenes: 0, crossfades: 4, soundtrack: true, videoFrames: 60 },
    estimateSeconds: 12,
    ...changes,
  });

  test("say what is prepared, what is left and how long it takes here", () => {
    expect(preparedLine(ahead({ scenesPrepared: 4 }))).toBe("4 of 5 scenes (the opening and closing cards too) are already rendered.");
    expect(remainingLine(ahead({}))).toBe(
      "A render now reuses 5 of its 10 pieces and makes 4 crossfades and the soundtrack. That takes about 15 s on this server, going by how fast it rendered its latest pieces.",
    );
    expect(
      remainingLine(ahead({ remaining: { scenes: 1, crossfades: 2, soundtrack: false, videoFrames: 90 }, estimateSeconds: 130 })),
    ).toBe(
      "A render now reuses 5 of its 10 pieces and makes 1 scene and 2 crossfades. That takes about 3 min on this server, going by how fast it rendered its latest pieces.",
    );
  });

  test("with nothing left, only the join; with nothing timed, no figure", () => {
    expect(remainingLine(ahead({ reusable: 10, remaining: { scenes: 0, crossfades: 0, soundtrack: false, videoFrames: 0 } }))).toBe(
      "A render now reuses 10 of its 10 pieces: only joining them is left.",
    );
    expect(remainingLine(ahead({ estimateSeconds: null }))).toMatch(/can't say how long that takes yet\.$/);
  });

  test("rough durations round up and never say nothing", () => {
    expect(roughDuration(0)).toBe("about 5 s");
    expect(roughDuration(41)).toBe("about 45 s");
    expect(roughDuration(61)).toBe("about 2 min");
  });
});
