import path from "node:path";
import { describe, expect, test } from "vitest";
import { photoMotionFor } from "~/render/camera";
import { ThemeAssetError, resolveThemeAsset } from "~/render/pieces/assets.server";
import { collageCells } from "~/render/pieces/collage.server";
import { videoEncodingArgs } from "~/render/pieces/encoding";
import { PAN_MARGIN, cameraMove, cameraWindow } from "~/render/pieces/filters";
import { concatList } from "~/render/pieces/join.server";
import { type SegmentOutputs, segmentArgs } from "~/render/pieces/segment-graph";
import { integratedLoudness, musicLoopList, musicLoops, soundtrackGainDb, soundtrackMixArgs } from "~/render/pieces/soundtrack.server";
import { wrapBalanced, wrapText } from "~/render/pieces/text.server";
import { audioSpans, segmentIsHeard, spanGain } from "~/render/pieces/timeline-audio.server";
import { PROFILES, type Segment } from "~/render/plan";

// Ten pixels a character: wrapping can be followed by hand.
const measure = async (line: string) => [...line].length * 10;

describe("wrapping caption text", () => {
  test("breaks at spaces and keeps the writer's own line breaks", async () => {
    const wrapped = await wrapText("Happy birthday dear Ana\nlove Bo", 150, 4, measure);
    expect(wrapped).toEqual({ lines: ["Happy birthday", "dear Ana", "love Bo"], truncated: false });
  });

  test("ends with an ellipsis when the text needs more lines than allowed", async () => {
    const wrapped = await wrapText("one two three four five six seven eight nine ten", 100, 2, measure);
    expect(wrapped.truncated).toBe(true);
    expect(wrapped.lines).toHaveLength(2);
    expect(wrapped.lines[1]!.endsWith("…")).toBe(true);
    for (const line of wrapped.lines) expect(await measure(line)).toBeLessThanOrEqual(100);
  });

  test("balanced wrapping evens out the lines instead of leaving one word alone", async () => {
    const text = "aaa bbb ccc ddd eee fff ggg";
    expect((await wrapText(text, 250, 3, measure)).lines).toEqual(["aaa bbb ccc ddd eee fff", "ggg"]);
    expect((await wrapBalanced(text, 250, 3, measure)).lines).toEqual(["aaa bbb ccc ddd", "eee fff ggg"]);
    expect((await wrapBalanced("Hello", 250, 3, measure)).lines).toEqual(["Hello"]);
  });

  test("breaks a word too long for a line inside the word", async () => {
    const wrapped = await wrapText("see https://example.com/a-very-long-path ok", 100, 6, measure);
    for (const line of wrapped.lines) expect(await measure(line)).toBeLessThanOrEqual(100);
    expect(wrapped.lines).toEqual(["see", "https://ex", "ample.com/", "a-very-lon", "g-path ok"]);
  });
});

describe("the clips' sound on the timeline", () => {
  const segment = (startFrame: number, frames: number, headFrames: number, tailFrames: number) =>
    ({ startFrame, frames, headFrames, tailFrames }) as Segment;
  const plan = {
    profile: PROFILES["1080p"],
    segments: [segment(0, 90, 0, 15), segment(75, 150, 15, 15), segment(210, 90, 15, 0)],
  };

  test("each segment's sound starts where its picture starts", () => {
    const spans = audioSpans(plan, ["a.wav", "b.wav", "c.wav"]);
    expect(spans.map((s) => [s.start, s.length, s.fadeIn, s.fadeOut])).toEqual([
      [0, 144_000, 0, 24_000],
      [120_000, 240_000, 24_000, 24_000],
      [336_000, 144_000, 24_000, 0],
    ]);
  });

  test("the two sides of a crossfade always add up to full volume", () => {
    const [first, second] = audioSpans(plan, ["a.wav", "b.wav", "c.wav"]);
    for (let t = second!.start; t < first!.start + first!.length; t += 997) {
      const sum = spanGain(first!, t - first!.start) + spanGain(second!, t - second!.start);
      expect(sum).toBeCloseTo(1, 12);
    }
    expect(spanGain(second!, 50_000)).toBe(1);
  });

  test("needs one file per segment", () => {
    expect(() => audioSpans(plan, ["a.wav"])).toThrow(RangeError);
  });

  test("a segment nothing of which is heard has no span, and the others keep their places", () => {
    const spans = audioSpans(plan, ["a.wav", null, "c.wav"]);
    expect(spans.map((s) => [s.file, s.start, s.length])).toEqual([
      ["a.wav", 0, 144_000],
      ["c.wav", 336_000, 144_000],
    ]);
  });

  test("only a clip with its own sound is heard", () => {
    const clip = (hasAudio: boolean) => ({ kind: "clip", hasAudio }) as Segment;
    expect([clip(true), clip(false), { kind: "photo" } as Segment, { kind: "title" } as Segment].map(segmentIsHeard)).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});

describe("camera moves over stills", () => {
  const hd = { width: 1920, height: 1080 };
  // The perspective filter's corners, evaluated as ffmpeg would for frame `n` (its `in` counts from 1).
  const corners = (filter: string, n: number) => {
    const values = Object.fromEntries(
      [...filter.matchAll(/([xy][0-3])='([^']+)'/g)].map(([, name, expression]) => [
        name,
        new Function("W", "H", "n", `return ${expression!.replace(/\bin\b/g, "(n+1)")}`)(1920, 1080, n) as number,
      ]),
    );
    return { left: values.x0!, right: values.x1!, top: values.y0!, bottom: values.y2! };
  };
  // A pan's crops and scale, evaluated as ffmpeg would for frame `n`: the window they show, in
  // pixels of the still, and whether every crop lies inside the picture it is cut from.
  const panWindow = (filter: string, n: number, frame = hd) => {
    const match =
      /^crop=w=(\d+):h=(\d+):x='([^']+)':y=(\d+):exact=1,scale=(\d+):(\d+):flags=bilinear,format=yuv420p,crop=w=(\d+):h=(\d+):x='([^']+)':y=(\d+)$/.exec(
        filter,
      );
    if (!match) throw new Error(`Not a pan: ${filter}`);
    const [w, h, , y, scaledW, scaledH, outW, outH, , offsetY] = match.slice(1).map(Number) as number[];
    const evaluate = (expression: string) => new Function("n", `return ${expression.replace(/floor/g, "Math.floor")}`)(n) as number;
    const [x, offsetX] = [evaluate(match[3]!), evaluate(match[9]!)];
    const [scaleX, scaleY] = [w! / scaledW!, h! / scaledH!];
    const margin = PAN_MARGIN;
    return {
      left: x - margin + offsetX * scaleX,
      right: x - margin + (offsetX + outW!) * scaleX,
      top: y! - margin + offsetY! * scaleY,
      bottom: y! - margin + (offsetY! + outH!) * scaleY,
      inside:
        [x, y!, offsetX, offsetY!].every((v) => Number.isInteger(v) && v >= 0) &&
        x + w! <= frame.width + 2 * margin &&
        y! + h! <= frame.height + 2 * margin &&
        offsetX + outW! <= scaledW! &&
        offsetY! + outH! <= scaledH! &&
        offsetX % 2 === 0 &&
        offsetY! % 2 === 0 &&
        outW === frame.width &&
        outH === frame.height,
    };
  };

  test("zoom-in starts on the whole picture and ends 12% closer, centred", () => {
    const filter = cameraMove("zoom-in", 150, 0, hd);
    const start = corners(filter, 0);
    expect([start.left, start.right, start.top, start.bottom]).toEqual([0, 1920, 0, 1080]);
    const end = corners(filter, 149);
    expect(end.right - end.left).toBeCloseTo(1920 / 1.12, 3);
    expect((end.left + end.right) / 2).toBeCloseTo(960, 3);
    expect((end.top + end.bottom) / 2).toBeCloseTo(540, 3);
  });

  test("pan-right moves a fixed window from the left edge to the right edge", () => {
    const filter = cameraMove("pan-right", 100, 0, hd);
    expect(panWindow(filter, 0).left).toBeCloseTo(0, 6);
    expect(panWindow(filter, 99).right).toBeCloseTo(1920, 6);
    for (const n of [0, 50, 99]) {
      const { left, right, top, bottom } = panWindow(filter, n);
      // 79/87 of the picture: a 1.1× zoom to 0.12%, so that crops place it finely.
      expect(right - left).toBeCloseTo((1920 * 79) / 87, 6);
      expect(bottom - top).toBeCloseTo((1080 * 79) / 87, 6);
      expect(Math.abs((right - left) * 1.1 - 1920)).toBeLessThan(1920 * 0.002);
      expect((top + bottom) / 2).toBeCloseTo(540, 6);
    }
  });

  test.each([
    ["pan-left", hd],
    ["pan-right", hd],
    ["pan-left", { width: 1280, height: 720 }],
    ["pan-right", { width: 1280, height: 720 }],
  ] as const)("%s's crops place the window within 1/174 of a pixel of where it glides, every frame (%o)", (motion, frame) => {
    for (const frames of [1, 2, 37, 150, 151, 300]) {
      const filter = cameraMove(motion, frames, 0, frame);
      const window = cameraWindow(motion, frames);
      for (let n = 0; n < frames; n++) {
        const placed = panWindow(filter, n, frame);
        expect(placed.inside).toBe(true);
        const exact = (window.left[0] + window.left[1] * n) * frame.width;
        expect(Math.abs(placed.left - exact)).toBeLessThanOrEqual(1 / 174 + 1e-9);
      }
    }
  });

  test("a chain that starts later in the move picks it up exactly where it is", () => {
    const whole = cameraMove("zoom-in", 150, 0, hd);
    const tail = cameraMove("zoom-in", 150, 135, hd);
    for (const n of [0, 7, 14]) {
      const [a, b] = [corners(tail, n), corners(whole, 135 + n)];
      for (const side of ["left", "right", "top", "bottom"] as const) expect(a[side]).toBeCloseTo(b[side], 4);
    }
    const [wholePan, tailPan] = [cameraMove("pan-left", 150, 0, hd), cameraMove("pan-left", 150, 135, hd)];
    for (const n of [0, 7, 14]) expect(panWindow(tailPan, n)).toEqual(panWindow(wholePan, 135 + n));
  });

  test("framed on a subject anywhere, every move keeps it in view from its first frame to its last", () => {
    const frames = 150;
    const shares = [0.03, 0.1, 0.25, 0.5, 0.75, 0.9, 0.97];
    for (const x of shares) {
      for (const y of shares) {
        const focus = { x, y };
        for (const index of [0, 1, 2, 3]) {
          const motion = photoMotionFor(index, focus);
          const window = cameraWindow(motion, frames, 0, focus);
          for (const n of [0, frames - 1]) {
            const at = (line: readonly [number, number]) => line[0] + line[1] * n;
            const where = `${motion} at (${x}, ${y}), frame ${n}`;
            expect(at(window.left), where).toBeLessThanOrEqual(x);
            expect(at(window.right), where).toBeGreaterThanOrEqual(x);
            expect(at(window.top), where).toBeLessThanOrEqual(y);
            expect(at(window.bottom), where).toBeGreaterThanOrEqual(y);
            expect(Math.min(at(window.left), at(window.top)), where).toBeGreaterThanOrEqual(-1e-9);
            expect(Math.max(at(window.right), at(window.bottom)), where).toBeLessThanOrEqual(1 + 1e-9);
          }
        }
      }
    }
  });

  test("a zoom closes in on the subject; a pan drifts towards it, or is a zoom when it could hardly move", () => {
    const at = (line: readonly [number, number], n: number) => line[0] + line[1] * n;
    const zoom = cameraWindow("zoom-in", 150, 0, { x: 0.52, y: 0.47 });
    expect((at(zoom.left, 149) + at(zoom.right, 149)) / 2).toBeCloseTo(0.52, 9);
    expect((at(zoom.top, 149) + at(zoom.bottom, 149)) / 2).toBeCloseTo(0.47, 9);
    // As near as the picture allows: its last window reaches the side and the top the subject is near.
    const near = cameraWindow("zoom-in", 150, 0, { x: 0.7, y: 0.1 });
    expect(at(near.right, 149)).toBeCloseTo(1, 9);
    expect(at(near.top, 149)).toBeCloseTo(0, 9);
    // A zoom out starts there.
    expect(at(cameraWindow("zoom-out", 150, 0, { x: 0.7, y: 0.1 }).right, 0)).toBeCloseTo(1, 9);
    // Planned as a pan to the left, it goes right, where the subject is, at its height.
    const pan = cameraWindow("pan-left", 150, 0, { x: 0.7, y: 0.2 });
    expect(pan.left[1]).toBeGreaterThan(0);
    expect(at(pan.top, 0)).toBeCloseTo(0, 9);
    expect(photoMotionFor(2, { x: 0.7, y: 0.2 })).toBe("pan-left");
    expect(photoMotionFor(2, { x: 0.97, y: 0.5 })).toBe("zoom-in");
    // With nothing known, as before: centred zooms and pans across the whole picture.
    expect(cameraWindow("pan-left", 150, 0, null)).toEqual(cameraWindow("pan-left", 150));
    expect(photoMotionFor(2, null)).toBe("pan-left");
  });

  test("a pan at its subject's height is still placed within 1/174 of a pixel, its crops inside the picture", () => {
    const focus = { x: 0.72, y: 0.12 };
    const filter = cameraMove("pan-right", 151, 0, hd, focus);
    const window = cameraWindow("pan-right", 151, 0, focus);
    for (let n = 0; n < 151; n++) {
      const placed = panWindow(filter, n);
      expect(placed.inside).toBe(true);
      expect(Math.abs(placed.left - (window.left[0] + window.left[1] * n) * 1920)).toBeLessThanOrEqual(1 / 174 + 1e-9);
      expect(Math.abs(placed.top - window.top[0] * 1080)).toBeLessThanOrEqual(1 / 174 + 1e-9);
    }
  });

  test("holds a one-frame still without dividing by zero", () => {
    expect(corners(cameraMove("zoom-out", 1, 0, hd), 0).left).toBeCloseTo(((1 - 1 / 1.12) / 2) * 1920, 3);
  });
});

describe("collage layouts", () => {
  const frame = { width: 1920, height: 1080 };
  test.each([2, 3, 4])("%i photos fill the frame in cells that never overlap", (count) => {
    const cells = collageCells(count, frame);
    expect(cells).toHaveLength(count);
    for (const [i, a] of cells.entries()) {
      expect(a.left).toBeGreaterThan(0);
      expect(a.top).toBeGreaterThan(0);
      expect(a.left + a.width).toBeLessThan(frame.width);
      expect(a.top + a.height).toBeLessThan(frame.height);
      for (const b of cells.slice(i + 1)) {
        const apart = a.left + a.width < b.left || b.left + b.width < a.left || a.top + a.height < b.top || b.top + b.height < a.top;
        expect(apart).toBe(true);
      }
    }
    const covered = cells.reduce((sum, c) => sum + c.width * c.height, 0) / (frame.width * frame.height);
    expect(covered).toBeGreaterThan(0.75);
  });
});

describe("theme assets", () => {
  const publicDir = path.resolve("/srv/chorus/public");

  test("a site path names a file under public/", () => {
    expect(resolveThemeAsset("/fonts/themes/Inter-SemiBold.ttf", publicDir)).toBe(path.join(publicDir, "fonts/themes/Inter-SemiBold.ttf"));
    expect(resolveThemeAsset("/themes/golden-hour/intro.jpg?v=2", publicDir)).toBe(path.join(publicDir, "themes/golden-hour/intro.jpg"));
  });

  test.each([
    "/../.env",
    "/themes/%2e%2e/%2e%2e/.env",
    "https://example.com/x.jpg",
    "//example.com/x.jpg",
    "themes/x.jpg",
    "/",
    "/a\\..\\..\\b",
  ])("%s is refused", (url) => {
    expect(() => resolveThemeAsset(url, publicDir)).toThrow(ThemeAssetError);
  });
});

describe("a scene's own frames", () => {
  const segment = {
    kind: "clip",
    key: "k",
    index: 1,
    startFrame: 0,
    frames: 300,
    headFrames: 15,
    tailFrames: 15,
    sourceFrames: 300,
    parts: [
      { kind: "caption", key: "c", start: 15, end: 105 },
      { kind: "plain", key: "p", start: 105, end: 285 },
    ],
  } as Segment;
  const inputs = { picture: "clip.mp4", inSeconds: 0, sourceFrames: 300, sound: true, textBox: null };
  const outputs = (parts: Segment["parts"]): SegmentOutputs => ({
    head: "head.mov",
    tail: "tail.mov",
    audio: "audio.wav",
    parts: parts.map((part, i) => ({ part, file: `part-${i}.mp4` })),
    partsPattern: "part-%d.mp4",
  });
  const encoders = (args: string[]) => args.filter((a) => a === "libx264").length;

  test("go through one encoder when both parts are written, cut where the plain part starts", () => {
    const args = segmentArgs(segment, inputs, outputs(segment.parts), PROFILES["1080p"], 1);
    expect(encoders(args)).toBe(1);
    expect(args[args.indexOf("-force_key_frames") + 1]).toBe("expr:eq(n,90)");
    expect(args[args.indexOf("-segment_frames") + 1]).toBe("90");
    expect(args).toContain("part-%d.mp4");
  });

  test("decode the clip and encode with the threads they are given", () => {
    for (const threads of [1, 2]) {
      const args = segmentArgs(segment, inputs, outputs(segment.parts), PROFILES["1080p"], threads);
      const clipInput = args.indexOf("-i");
      expect(args.slice(clipInput - 4, clipInput - 2)).toEqual(["-threads", String(threads)]);
      const encoder = args.indexOf("libx264");
      expect(args[args.indexOf("-threads", encoder) + 1]).toBe(String(threads));
    }
  });

  test("written as one part, are encoded as before, to the part's own file", () => {
    const args = segmentArgs(segment, inputs, outputs(segment.parts.slice(1)), PROFILES["1080p"], 1);
    expect(encoders(args)).toBe(1);
    expect(args).not.toContain("segment");
    expect(args.at(-1)).toBe("audio.wav");
    expect(args).toContain("part-0.mp4");
  });
});

describe("joining and loudness", () => {
  test("the concat list quotes every path so the demuxer reads it back exactly", () => {
    expect(concatList(["/tmp/a b/body.mp4", "/tmp/it's/t.mp4"])).toBe("file '/tmp/a b/body.mp4'\nfile '/tmp/it'\\''s/t.mp4'\n");
  });

  test("every piece is encoded alike, whatever the profile", () => {
    const args = videoEncodingArgs(PROFILES["720p"], 2);
    for (const option of ["-crf", "-profile:v", "-level:v", "-pix_fmt", "-r", "-g", "-threads"]) expect(args).toContain(option);
    expect(args.slice(args.indexOf("-r"), args.indexOf("-r") + 2)).toEqual(["-r", "30"]);
  });

  test("the mix is brought to -16 LUFS, and silence is left alone", () => {
    const summary = [
      "[Parsed_ebur128_0 @ 0x1] Summary:",
      "",
      "  Integrated loudness:",
      "    I:         -21.9 LUFS",
      "    Threshold: -31.9 LUFS",
    ];
    expect(integratedLoudness(summary)).toBe(-21.9);
    expect(soundtrackGainDb(-21.9)).toBe(5.9);
    expect(soundtrackGainDb(-70)).toBe(0);
    expect(soundtrackGainDb(-50)).toBe(20);
    expect(integratedLoudness(["nothing here"])).toBeNull();
  });

  test("music shorter than the video plays again from its start point, from a list long enough to cover it", () => {
    const list = musicLoopList({ startSeconds: 12.5, availableSeconds: 30 }, "/work/it's here/music.m4a", 100);
    const lines = list.trim().split("\n");
    expect(lines[0]).toBe("ffconcat version 1.0");
    const files = lines.filter((line) => line.startsWith("file "));
    expect(files.length * 30).toBeGreaterThanOrEqual(100);
    expect(new Set(files)).toEqual(new Set(["file '/work/it'\\''s here/music.m4a'"]));
    expect(lines.filter((line) => line === "inpoint 12.500")).toHaveLength(files.length);
  });

  test("only a track that ends before the video is read through the loop list", () => {
    const plan = (availableSeconds: number) => ({
      profile: PROFILES["720p"],
      totalFrames: 300,
      music: { trackId: "t", source: "t.m4a", startSeconds: 4, fadeOutSeconds: 2, volume: 0.8, availableSeconds },
    });
    expect(musicLoops(plan(9))).toBe(true);
    expect(musicLoops(plan(60))).toBe(false);
    const looped = soundtrackMixArgs(plan(9), "timeline.wav", "music.m4a", "mix.wav", "loop.ffconcat");
    expect(looped.join(" ")).toContain("-f concat -safe 0 -i loop.ffconcat");
    expect(looped).not.toContain("-stream_loop");
    const once = soundtrackMixArgs(plan(60), "timeline.wav", "music.m4a", "mix.wav");
    expect(once.join(" ")).toContain("-ss 4.000 -i music.m4a");
  });
});
