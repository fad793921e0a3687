import { describe, expect, test } from "vitest";
import {
  bodyFrames,
  joinedVideoPieces,
  piecesOf,
  planRender,
  type PlanInput,
  type PlanMedia,
  type PlanTheme,
  type RenderPlan,
  type Segment,
} from "~/render/plan";

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

let next = 0;
function item(kind: "photo" | "video", changes: Partial<PlanMedia> = {}): PlanMedia {
  next += 1;
  return {
    id: `m${String(next).padStart(3, "0")}`,
    kind,
    status: "ready",
    renditionKey: `events/e/media/${next}/rendition.${kind === "photo" ? "jpg" : "mp4"}`,
    durationSeconds: kind === "video" ? 8 : null,
    trimStart: 0,
    trimEnd: null,
    caption: "",
    contributorName: "",
    hidden: false,
    archived: false,
    position: next,
    hasAudio: kind === "video",
    ...changes,
  };
}

const input = (media: PlanMedia[], changes: Partial<PlanInput> = {}): PlanInput => ({
  intro: { heading: "Ana's birthday", subheading: "Happy birthday!" },
  outro: { heading: "With love", subheading: "from all of us" },
  theme,
  media,
  track: null,
  resolution: "1080p",
  ...changes,
});

const itemSegments = (segments: Segment[]) => segments.filter((s) => s.kind !== "title");

describe("render planning", () => {
  test("intro, the items in their order, outro", () => {
    const a = item("video", { position: 2 });
    const b = item("photo", { position: 0 });
    const c = item("video", { position: 1 });
    const plan = planRender(input([a, b, c]));
    expect(plan.segments.map((s) => s.kind)).toEqual(["title", "photo", "clip", "clip", "title"]);
    expect(itemSegments(plan.segments).map((s) => ("mediaId" in s ? s.mediaId : null))).toEqual([b.id, c.id, a.id]);
    expect(plan.segments[0]).toMatchObject({ role: "intro", heading: "Ana's birthday", backgroundUrl: theme.introUrl });
    expect(plan.segments.at(-1)).toMatchObject({ role: "outro", backgroundUrl: theme.outroUrl });
  });

  test("hidden, archived, failed and unfinished items stay out; the last two are reported", () => {
    const kept = item("photo");
    const hidden = item("photo", { hidden: true });
    const archived = item("video", { archived: true });
    const failed = item("video", { status: "failed" });
    const waiting = item("video", { status: "processing" });
    const plan = planRender(input([kept, hidden, archived, failed, waiting]));
    expect(itemSegments(plan.segments).map((s) => ("mediaId" in s ? s.mediaId : ""))).toEqual([kept.id]);
    expect(plan.skipped).toEqual([
      { mediaId: failed.id, reason: "failed" },
      { mediaId: waiting.id, reason: "not-ready" },
    ]);
  });

  test("trims set a clip's start and length; a trim past the end is held to the clip", () => {
    const trimmed = item("video", { durationSeconds: 10, trimStart: 2, trimEnd: 6.5 });
    const overlong = item("video", { durationSeconds: 4, trimStart: 1, trimEnd: 30 });
    const plan = planRender(input([trimmed, overlong]));
    const [first, second] = itemSegments(plan.segments);
    expect(first).toMatchObject({ kind: "clip", inSeconds: 2, frames: 135, sourceFrames: 135 });
    expect(second).toMatchObject({ kind: "clip", inSeconds: 1, frames: 90 });
  });

  test("very short clips are held to the minimum length, showing all of their own frames", () => {
    const blink = item("video", { durationSeconds: 0.4 });
    const [segment] = itemSegments(planRender(input([blink])).segments);
    expect(segment).toMatchObject({ kind: "clip", frames: 45, sourceFrames: 12 });
  });

  test("durations add up: items minus the crossfades between them", () => {
    const media = [item("video"), item("photo"), item("video", { durationSeconds: 3 })];
    const plan = planRender(input(media));
    const lengths = plan.segments.reduce((sum, s) => sum + s.frames, 0);
    const overlaps = plan.transitions.reduce((sum, t) => sum + t.frames, 0);
    // 3.5 s intro + 8 s + 5 s + 3 s + 3.5 s outro, four 0.5 s crossfades.
    expect(lengths).toBe(105 + 240 + 150 + 90 + 105);
    expect(plan.transitions).toHaveLength(4);
    expect(plan.totalFrames).toBe(lengths - overlaps);
    expect(plan.totalFrames).toBe(690 - 60);
    expect(plan.durationSeconds).toBeCloseTo(21);
  });

  test("each transition starts where the next segment starts and ends where the previous one ends", () => {
    const plan = planRender(input([item("video"), item("photo")]));
    for (const transition of plan.transitions) {
      const from = plan.segments[transition.from]!;
      const to = plan.segments[transition.from + 1]!;
      expect(transition.startFrame).toBe(to.startFrame);
      expect(transition.startFrame + transition.frames).toBe(from.startFrame + from.frames);
      expect(from.tailFrames).toBe(transition.frames);
      expect(to.headFrames).toBe(transition.frames);
    }
    // Bodies and transitions tile the timeline without gaps.
    const tiles = plan.segments.reduce((sum, s) => sum + bodyFrames(s), 0) + plan.transitions.reduce((sum, t) => sum + t.frames, 0);
    expect(tiles).toBe(plan.totalFrames);
  });

  test("a crossfade never takes more than a third of a short neighbour", () => {
    const plan = planRender(input([item("video", { durationSeconds: 0.2 })], { timing: { minClipSeconds: 0.5, transitionSeconds: 1 } }));
    for (const t of plan.transitions) expect(t.frames).toBeLessThanOrEqual(5);
    for (const s of plan.segments) expect(bodyFrames(s)).toBeGreaterThan(0);
  });

  test("text boxes carry the contributor's name and message", () => {
    const named = item("photo", { contributorName: " Bo ", caption: " Happy birthday! " });
    const anonymous = item("photo");
    const [first, second] = itemSegments(planRender(input([named, anonymous])).segments);
    expect(first).toMatchObject({ textBox: { name: "Bo", message: "Happy birthday!" } });
    expect(second).toMatchObject({ textBox: null });
  });

  test("collage themes group runs of photos by their scene pattern; clips stand alone", () => {
    const collage = { ...theme, isCollage: true, scenes: [{ kind: "collage" as const, photos: 3 }, { kind: "single" as const }] };
    const media = [
      item("photo", { contributorName: "Ana" }),
      item("photo", { contributorName: "Bo" }),
      item("photo", { contributorName: "Ana" }),
      item("photo"),
      item("video"),
      item("photo"),
      item("photo"),
    ];
    const plan = planRender(input(media, { theme: collage }));
    expect(itemSegments(plan.segments).map((s) => s.kind)).toEqual(["collage", "photo", "clip", "collage"]);
    const first = plan.segments[1]!;
    expect(first).toMatchObject({ kind: "collage", mediaIds: [media[0]!.id, media[1]!.id, media[2]!.id], textBox: { name: "Ana & Bo" } });
    expect(plan.segments[4]).toMatchObject({ kind: "collage", mediaIds: [media[5]!.id, media[6]!.id] });
  });

  test("a lone photo in a collage scene is shown on its own", () => {
    const collage = { ...theme, isCollage: true, scenes: [{ kind: "collage" as const, photos: 4 }] };
    const plan = planRender(input([item("photo"), item("video")], { theme: collage }));
    expect(itemSegments(plan.segments).map((s) => s.kind)).toEqual(["photo", "clip"]);
  });

  /** Keys of every piece of the plan that differ between two plans of the same shape, by what they are. */
  function changedPieces(before: RenderPlan, after: RenderPlan) {
    const changed: string[] = [];
    before.segments.forEach((segment, i) => {
      const other = after.segments[i]!;
      if (segment.key !== other.key) changed.push(`${segment.index}:${segment.kind}`);
      segment.parts.forEach((part, j) => {
        if (part.key !== other.parts[j]?.key) changed.push(`${segment.index}:${part.kind}`);
      });
    });
    before.transitions.forEach((t, i) => {
      if (t.key !== after.transitions[i]!.key) changed.push(`crossfade ${t.from}-${t.from + 1}`);
    });
    return changed;
  }

  test("changing one caption changes only that scene's captioned part", () => {
    const media = [item("video"), item("photo", { caption: "Hi" }), item("video")];
    const before = planRender(input(media));
    const after = planRender(input(media.map((m, i) => (i === 1 ? { ...m, caption: "Hello" } : m))));
    expect(changedPieces(before, after)).toEqual(["2:caption"]);
    expect(after.hash).not.toBe(before.hash);
    expect(planRender(input(media)).hash).toBe(before.hash);
  });

  test("a theme change changes only the captioned parts, the title cards and the crossfades beside them", () => {
    const collage = { ...theme, isCollage: true, scenes: [{ kind: "collage" as const, photos: 2 }] };
    const media = [
      item("video", { contributorName: "Ana", caption: "Happy birthday!" }),
      item("video"),
      item("photo", { contributorName: "Bo" }),
      item("photo", { contributorName: "Cy" }),
    ];
    const before = planRender(input(media, { theme: collage }));
    expect(before.segments.map((s) => s.kind)).toEqual(["title", "clip", "clip", "collage", "title"]);
    const after = planRender(input(media, { theme: { ...collage, fontColor: "#ffeecc" } }));
    expect(changedPieces(before, after)).toEqual([
      "0:title",
      "0:card",
      "1:caption",
      "3:caption",
      "4:title",
      "4:card",
      "crossfade 0-1",
      "crossfade 3-4",
    ]);
  });

  test("a scene without words has no captioned part; one with words shows the box first, then the picture alone", () => {
    const plan = planRender(input([item("video"), item("video", { contributorName: "Bo", caption: "Happy birthday!" })]));
    const [, plain, captioned] = plan.segments;
    expect(plain!.parts.map((p) => p.kind)).toEqual(["plain"]);
    // The box from the end of the incoming crossfade, for 3 s (a name and two words).
    expect(captioned!.parts).toMatchObject([
      { kind: "caption", start: 15, end: 15 + 90 },
      { kind: "plain", start: 105, end: 240 - 15 },
    ]);
  });

  test("the box stays longer for more words, at most 6 s, and for all of a scene too short for both", () => {
    const words = (n: number) => Array.from({ length: n }, () => "word").join(" ");
    const captionFrames = (changes: Partial<PlanMedia>) => {
      const [, scene] = planRender(input([item("video", { durationSeconds: 20, ...changes })])).segments;
      const caption = scene!.parts.find((p) => p.kind === "caption")!;
      return caption.end - caption.start;
    };
    expect(captionFrames({ contributorName: "Bo", caption: words(2) })).toBe(90);
    expect(captionFrames({ contributorName: "Bo", caption: words(11) })).toBe(150);
    expect(captionFrames({ contributorName: "Bo", caption: words(40) })).toBe(180);
    // 3.5 s of its own: 3 s of box would leave half a second of picture alone, so the box stays.
    const [, short] = planRender(input([item("video", { durationSeconds: 4.5, contributorName: "Bo" })])).segments;
    expect(short!.parts).toEqual([expect.objectContaining({ kind: "caption", start: 15, end: 135 - 15 })]);
  });

  test("a scene's head, parts and tail add up to its frames exactly", () => {
    const media = [
      item("video", { durationSeconds: 7.3, contributorName: "Ana", caption: "Hi" }),
      item("video", { durationSeconds: 2, contributorName: "Bo" }),
      item("photo", { caption: "A long message that will need more than the shortest reading time to read" }),
      item("photo"),
    ];
    const plan = planRender(input(media));
    for (const segment of plan.segments) {
      let at = segment.headFrames;
      for (const part of segment.parts) {
        expect(part.start).toBe(at);
        expect(part.end).toBeGreaterThan(part.start);
        at = part.end;
      }
      expect(at + segment.tailFrames).toBe(segment.frames);
    }
    const pieces = piecesOf(plan);
    const parts = plan.segments.flatMap((s) => s.parts);
    expect(pieces.map((p) => p.key)).toEqual([
      ...plan.segments.flatMap((s) => [s.key, ...s.parts.map((p) => p.key)]),
      ...plan.transitions.map((t) => t.key),
      plan.soundtrackKey,
    ]);
    // Parts and crossfades tile the timeline.
    expect(parts.reduce((sum, p) => sum + p.end - p.start, 0) + plan.transitions.reduce((sum, t) => sum + t.frames, 0)).toBe(
      plan.totalFrames,
    );
    // The pieces a render joins, in timeline order: each scene's parts, then the crossfade after it.
    const joined = joinedVideoPieces(plan);
    expect(joined.map((p) => p.key)).toEqual(
      plan.segments.flatMap((s, i) => [...s.parts.map((p) => p.key), ...plan.transitions.filter((t) => t.from === i).map((t) => t.key)]),
    );
    expect(joined.reduce((sum, p) => sum + p.frames, 0)).toBe(plan.totalFrames);
  });

  test("the soundtrack's key follows what is heard: not captions, the theme or the frame size", () => {
    const track = { id: "t1", renditionKey: "tracks/t1.m4a", durationSeconds: 90, startSeconds: 0, fadeOutSeconds: 3, volume: 0.8 };
    const media = [item("video", { caption: "Hi" }), item("photo"), item("video", { hasAudio: false })];
    const key = (m: PlanMedia[], changes: Partial<PlanInput> = {}) => planRender(input(m, { track, ...changes })).soundtrackKey;
    const base = key(media);
    const change = (i: number, changes: Partial<PlanMedia>) => media.map((m, j) => (j === i ? { ...m, ...changes } : m));
    expect(key(change(0, { caption: "Hello" }))).toBe(base);
    expect(key(media, { theme: { ...theme, fontColor: "#ffeecc" } })).toBe(base);
    expect(key(media, { resolution: "720p" })).toBe(base);
    // A silent clip's own file is not heard: replacing it leaves the sound alone.
    expect(key(change(2, { renditionKey: "events/e/media/other.mp4" }))).toBe(base);
    expect(key(change(0, { trimStart: 1 }))).not.toBe(base);
    expect(key(change(0, { renditionKey: "events/e/media/other.mp4" }))).not.toBe(base);
    expect(key(change(1, { hidden: true }))).not.toBe(base);
    expect(key(media, { track: { ...track, volume: 0.5 } })).not.toBe(base);
    expect(key(media, { track: null })).not.toBe(base);
  });

  test("a photo's keys stay as they were until its subject is found, and change only when it moves visibly", () => {
    const [clip, photo] = [item("video"), item("photo")];
    const keysOf = (changes: Partial<PlanMedia>) => {
      const plan = planRender(input([clip, { ...photo, ...changes }]));
      return { scene: plan.segments[2]!, clip: plan.segments[1]!.key };
    };
    const unknown = keysOf({});
    expect(keysOf({ focus: null }).scene.key).toBe(unknown.scene.key);
    expect(unknown.scene).not.toHaveProperty("focus");
    const found = keysOf({ focus: { x: 0.8, y: 0.3 } });
    expect(found.scene.key).not.toBe(unknown.scene.key);
    expect(found.scene).toMatchObject({ focus: { x: 0.8, y: 0.3 } });
    // Under a thousandth of the picture (two pixels at 1080p) is the same picture.
    expect(keysOf({ focus: { x: 0.80004, y: 0.3 } }).scene.key).toBe(found.scene.key);
    expect(keysOf({ focus: { x: 0.7, y: 0.3 } }).scene.key).not.toBe(found.scene.key);
    expect(found.clip).toBe(unknown.clip);
  });

  test("720p output has its own profile and keys", () => {
    const media = [item("video")];
    const full = planRender(input(media));
    const small = planRender(input(media, { resolution: "720p" }));
    expect(small.profile).toMatchObject({ width: 1280, height: 720, fps: 30 });
    expect(small.segments[1]!.key).not.toBe(full.segments[1]!.key);
  });

  test("music starts at the chosen offset, fades over at most the video, volume kept in range", () => {
    const plan = planRender(
      input([item("photo")], {
        track: { id: "t1", renditionKey: "tracks/t1.m4a", durationSeconds: 90, startSeconds: 12, fadeOutSeconds: 60, volume: 1.4 },
      }),
    );
    expect(plan.music).toMatchObject({ trackId: "t1", startSeconds: 12, volume: 1, availableSeconds: 78 });
    expect(plan.music!.fadeOutSeconds).toBeCloseTo(plan.durationSeconds);
  });

  test("a start point past the track's end moves back to its last second, and that second is what loops", () => {
    const plan = planRender(
      input([item("photo")], {
        track: { id: "t1", renditionKey: "tracks/t1.m4a", durationSeconds: 90, startSeconds: 200, fadeOutSeconds: 3, volume: 0.8 },
      }),
    );
    expect(plan.music).toMatchObject({ startSeconds: 89, availableSeconds: 1 });
  });

  test("an event with nothing ready yet still has its intro and outro", () => {
    const plan = planRender(input([]));
    expect(plan.segments.map((s) => s.kind)).toEqual(["title", "title"]);
    expect(plan.totalFrames).toBe(105 + 105 - 15);
  });

  test("a 600-clip plan has a segment per clip and a crossfade between each", () => {
    const media = Array.from({ length: 600 }, () => item("video", { durationSeconds: 2 }));
    const plan = planRender(input(media));
    expect(plan.segments).toHaveLength(602);
    expect(plan.transitions).toHaveLength(601);
  });
});
