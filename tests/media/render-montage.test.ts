// A plan from planRender() rendered end to end with the piece functions, at a small frame size.
import { access, open } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { probeMedia } from "~/media/probe.server";
import { runFfmpeg } from "~/media/run.server";
import {
  type PieceContext,
  type SegmentFiles,
  countVideoFrames,
  joinPieces,
  makePoster,
  renderSegmentPieces,
  renderSoundtrack,
  renderTransition,
} from "~/render/pieces";
import { mp4VideoSampleCount } from "~/render/pieces/verify.server";
import { type RenderPlan, piecesOf, planRender } from "~/render/plan";
import { runRender } from "~/render/run.server";
import { dominant, frameAt, makeTempDir, makeTwoColourClip, pixelAt } from "./support/media-fixtures";
import { item, makeMontageSources, memoryStore, montageContext, planInput } from "./support/montage";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
const files: Record<string, string> = {};

beforeAll(async () => {
  dir = await makeTempDir("render-montage");
  Object.assign(files, await makeMontageSources(dir));
});
afterAll(() => dir.remove());

const context = (name: string, changes: Partial<PieceContext> = {}) => montageContext(dir, files, name, changes);

/** Every piece of the plan, rendered two at a time as the render job does. */
async function renderAll(plan: RenderPlan, label: string) {
  const segments: SegmentFiles[] = new Array(plan.segments.length);
  const queue = [...plan.segments];
  await Promise.all(
    [0, 1].map(async () => {
      for (let segment = queue.shift(); segment; segment = queue.shift()) {
        segments[segment.index] = await renderSegmentPieces(segment, context(`${label}-segment-${segment.index}`));
      }
    }),
  );
  const transitions = await Promise.all(
    plan.transitions.map((t) =>
      renderTransition(segments[t.from]!.tail!, segments[t.from + 1]!.head!, t.frames, context(`${label}-transition-${t.index}`)),
    ),
  );
  const soundtrack = await renderSoundtrack(
    plan,
    segments.map((s) => s.audio!),
    plan.music ? files[plan.music.source]! : null,
    dir.path(`${label}-soundtrack.m4a`),
    context(`${label}-soundtrack`),
  );
  const timeline = segments.flatMap((s, i) => [
    ...plan.segments[i]!.parts.map((part) => s.parts[part.key]!),
    ...plan.transitions.filter((t) => t.from === i).map((t) => transitions[t.index]!),
  ]);
  return { segments, transitions, soundtrack, timeline };
}

async function meanVolume(file: string, start: number, seconds: number, band: string) {
  const { stderrTail } = await runFfmpeg([
    "-hide_banner",
    "-nostats",
    "-ss",
    String(start),
    "-t",
    String(seconds),
    "-i",
    file,
    "-af",
    `${band},volumedetect`,
    "-f",
    "null",
    "-",
  ]);
  return Number(/mean_volume:\s*(-?[\d.]+) dB/.exec(stderrTail.join("\n"))?.[1] ?? Number.NaN);
}

async function topLevelBoxes(file: string) {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    const names: string[] = [];
    const header = Buffer.alloc(16);
    for (let offset = 0; offset + 8 <= size;) {
      await handle.read(header, 0, 16, offset);
      const length = header.readUInt32BE(0);
      names.push(header.toString("latin1", 4, 8));
      if (length === 0) break;
      offset += length === 1 ? Number(header.readBigUInt64BE(8)) : length;
    }
    return names;
  } finally {
    await handle.close();
  }
}

/** Frame `n` of a video as a PNG. */

describe("rendering a plan end to end", () => {
  test("intro, clips, photo, collage and outro join into one video of exactly the plan's frames", async () => {
    const media = [
      item("video", "clip.mp4"),
      item("video", "clip.mp4", { trimStart: 0.5 }),
      item("photo", "a.jpg"),
      item("photo", "b.jpg"),
      item("photo", "c.jpg"),
    ];
    const plan = planRender(planInput(media));
    expect(plan.segments.map((s) => s.kind)).toEqual(["title", "clip", "clip", "photo", "collage", "title"]);
    const { timeline, soundtrack } = await renderAll(plan, "montage");
    const output = await joinPieces(timeline, soundtrack, dir.path("montage.mp4"), {
      ...context("join"),
      durationSeconds: plan.durationSeconds,
    });

    expect(await countVideoFrames(output)).toBe(plan.totalFrames);
    // With the index first (faststart) and an audio track beside the video, the index reads the same.
    expect(await mp4VideoSampleCount(output)).toBe(plan.totalFrames);
    const probe = await probeMedia(output);
    expect(probe.video).toMatchObject({ codec: "h264", width: 320, height: 180, frameRate: 30, pixelFormat: "yuv420p" });
    expect(probe.audio).toMatchObject({ codec: "aac", sampleRate: 48_000, channels: 2 });
    expect(Math.abs(probe.duration! - plan.durationSeconds)).toBeLessThan(0.05);
    // Plays through: every frame decodes without a single error or warning.
    const { stderrTail } = await runFfmpeg(["-hide_banner", "-v", "warning", "-i", output, "-f", "null", "-"]);
    expect(stderrTail).toEqual([]);
    const boxes = await topLevelBoxes(output);
    expect(boxes.indexOf("moov")).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf("moov")).toBeLessThan(boxes.indexOf("mdat"));

    const poster = await makePoster(output, 2, dir.path("poster.jpg"));
    expect(poster).toMatchObject({ width: 320, height: 180 });
    expect((await sharp(poster.path).metadata()).format).toBe("jpeg");
  });

  test("the soundtrack lasts exactly the video, and the music dips while someone speaks", async () => {
    const plan = planRender(
      planInput([item("photo", "a.jpg"), item("video", "speech.mp4", { durationSeconds: 3 }), item("photo", "b.jpg")], {
        theme: { ...planInput([]).theme, isCollage: false, scenes: [] },
      }),
    );
    expect(plan.segments.map((s) => s.kind)).toEqual(["title", "photo", "clip", "photo", "title"]);
    const [, photo, clip] = plan.segments as [unknown, { startFrame: number; frames: number }, { startFrame: number; frames: number }];
    const { soundtrack } = await renderAll(plan, "ducking");

    const probe = await probeMedia(soundtrack);
    expect(probe.audio).toMatchObject({ codec: "aac", sampleRate: 48_000, channels: 2 });
    expect(Math.abs(probe.duration! - plan.durationSeconds)).toBeLessThan(0.025);

    // Windows clear of the crossfades and of the compressor's release.
    const seconds = (frame: number) => frame / 30;
    const photoWindow = [seconds(photo.startFrame + 15) + 0.1, 0.8] as const;
    const clipWindow = [seconds(clip.startFrame + 15) + 0.3, seconds(clip.frames - 30) - 0.6] as const;
    const music = "bandpass=f=3000:width_type=q:w=4,bandpass=f=3000:width_type=q:w=4";
    const voice = "lowpass=f=500,lowpass=f=500";
    const musicInPhoto = await meanVolume(soundtrack, ...photoWindow, music);
    const musicInClip = await meanVolume(soundtrack, ...clipWindow, music);
    expect(musicInPhoto).toBeGreaterThan(-40); // the music plays
    expect(musicInPhoto - musicInClip).toBeGreaterThan(6);
    // The 3.5 s of music from its start point loop: it still plays under the last photo.
    const [, , , lastPhoto] = plan.segments as { startFrame: number }[];
    expect(await meanVolume(soundtrack, seconds(lastPhoto!.startFrame) + 0.9, 0.5, music)).toBeGreaterThan(musicInPhoto - 4);
    expect(await meanVolume(soundtrack, ...clipWindow, voice)).toBeGreaterThan((await meanVolume(soundtrack, ...photoWindow, voice)) + 20);
  });

  test("music shorter than the video plays again from its start point, not from the track's beginning", async () => {
    // Half a second of a low "intro" tone the organiser skipped, then the part they chose.
    files["intro-music.m4a"] = dir.path("intro-music.m4a");
    await runFfmpeg([
      "-hide_banner",
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=1200:sample_rate=48000:duration=0.5",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=3000:sample_rate=48000:duration=2",
      "-filter_complex",
      "[0:a][1:a]concat=n=2:v=0:a=1",
      "-ac",
      "2",
      "-c:a",
      "aac",
      files["intro-music.m4a"],
    ]);
    const plan = planRender(
      planInput([item("photo", "a.jpg"), item("photo", "b.jpg")], {
        theme: { ...planInput([]).theme, isCollage: false, scenes: [] },
        track: {
          id: "intro-track",
          renditionKey: "intro-music.m4a",
          durationSeconds: 2.5,
          startSeconds: 0.5,
          fadeOutSeconds: 0,
          volume: 0.8,
        },
      }),
    );
    expect(plan.durationSeconds).toBeGreaterThan(2 * 2); // the chosen 2 s play three times
    const { soundtrack } = await renderAll(plan, "loop-from-start-point");
    expect(Math.abs((await probeMedia(soundtrack)).duration! - plan.durationSeconds)).toBeLessThan(0.025);
    const band = (hz: number) => `bandpass=f=${hz}:width_type=q:w=4,bandpass=f=${hz}:width_type=q:w=4`;
    const chosen = await meanVolume(soundtrack, 0, plan.durationSeconds, band(3000));
    const skipped = await meanVolume(soundtrack, 0, plan.durationSeconds, band(1200));
    expect(chosen).toBeGreaterThan(-35);
    // Looping from the track's beginning brings the intro back every time, only ~7 dB under the rest.
    expect(chosen - skipped).toBeGreaterThan(25);
    // And the chosen part is still playing at the end.
    expect(await meanVolume(soundtrack, plan.durationSeconds - 1, 0.8, band(3000))).toBeGreaterThan(chosen - 4);
  });

  test("a shipped track longer than the video plays under it without looping", async () => {
    files["warm-sunday.m4a"] = path.resolve("public/music/warm-sunday.m4a");
    const plan = planRender(
      planInput([item("video", "speech.mp4", { durationSeconds: 3 }), item("photo", "a.jpg")], {
        track: {
          id: "warm-sunday",
          renditionKey: "warm-sunday.m4a",
          durationSeconds: 91,
          startSeconds: 10,
          fadeOutSeconds: 2,
          volume: 0.8,
        },
      }),
    );
    const { soundtrack } = await renderAll(plan, "shipped-track");
    const probe = await probeMedia(soundtrack);
    expect(Math.abs(probe.duration! - plan.durationSeconds)).toBeLessThan(0.025);
    const { stderrTail } = await runFfmpeg(["-hide_banner", "-nostats", "-i", soundtrack, "-af", "ebur128", "-f", "null", "-"]);
    expect(Number(/I:\s+(-?[\d.]+) LUFS/.exec(stderrTail.join("\n"))?.[1])).toBeGreaterThan(-18);
  });

  test("without music the soundtrack is the clips' sound at the target loudness", async () => {
    const plan = planRender(
      planInput([item("video", "speech.mp4", { durationSeconds: 3 }), item("video", "speech.mp4", { durationSeconds: 3 })], {
        track: null,
      }),
    );
    expect(plan.music).toBeNull();
    const { soundtrack } = await renderAll(plan, "no-music");
    const { stderrTail } = await runFfmpeg(["-hide_banner", "-nostats", "-i", soundtrack, "-af", "ebur128", "-f", "null", "-"]);
    const integrated = Number(/I:\s+(-?[\d.]+) LUFS/.exec(stderrTail.join("\n"))?.[1]);
    expect(integrated).toBeGreaterThan(-17.5);
    expect(integrated).toBeLessThan(-14.5);
  });

  test("the runner reuses stored pieces and the soundtrack, and one failed piece fails the render cleanly", async () => {
    const { store, asked } = memoryStore();
    const media = [item("video", "speech.mp4", { durationSeconds: 3 }), item("photo", "a.jpg"), item("video", "clip.mp4")];
    const theme = { ...planInput([]).theme, isCollage: false, scenes: [] };
    const plan = planRender(planInput(media, { theme }));
    const { sourcePath, assetPath } = context("runner");
    const run = (p: RenderPlan, name: string) =>
      runRender(p, { store, sourcePath, assetPath, workDir: dir.path(`${name}-work`), output: dir.path(`${name}.mp4`) });
    const first = await run(plan, "runner-first");
    expect(first.piecesRendered).toBe(piecesOf(plan).length);
    expect(await countVideoFrames(first.output)).toBe(plan.totalFrames);
    expect(first.finishedAt.join).toBeGreaterThanOrEqual(Math.max(first.finishedAt.crossfades, first.finishedAt.soundtrack));

    // A new caption on the photo, shorter to read: its captioned part and the plain part after it.
    const captioned = planRender(
      planInput(
        media.map((m, i) => (i === 1 ? { ...m, caption: "A new caption" } : m)),
        { theme },
      ),
    );
    asked.clear();
    const second = await run(captioned, "runner-caption");
    // The photo's own frames are fewer than the box's reading time: it is all one captioned part.
    const photo = captioned.segments[2]!;
    expect(photo.parts.map((p) => p.kind)).toEqual(["caption"]);
    expect(second.renderedKeys).toEqual([photo.parts[0]!.key]);
    // Of the pieces kept, only what the join needs was fetched: every crossfade and the sound are
    // reused, so no scene's head, tail or WAV; each part's video.
    for (const segment of captioned.segments) {
      expect(asked.get(segment.key)).toEqual([]);
      for (const part of segment.parts) if (asked.has(part.key)) expect(asked.get(part.key)).toEqual(["body"]);
    }
    expect(await countVideoFrames(second.output)).toBe(captioned.totalFrames);

    // The music turned down: a new soundtrack from the scenes kept, which reads the WAVs of the
    // clips with sound only; the title cards' and the photo's are silence.
    const quieter = planRender(planInput(media, { theme, track: { ...planInput([]).track!, volume: 0.4 } }));
    expect(quieter.soundtrackKey).not.toBe(plan.soundtrackKey);
    asked.clear();
    const third = await run(quieter, "runner-music");
    expect(third.renderedKeys).toEqual([quieter.soundtrackKey]);
    // (A scene's own frames are its parts, fetched by their own keys.)
    expect(quieter.segments.map((segment) => asked.get(segment.key))).toEqual([[], ["audio"], [], ["audio"], []]);
    expect(await countVideoFrames(third.output)).toBe(quieter.totalFrames);

    // A clip whose rendition cannot be read: the render fails with that error and writes no video.
    const broken = planRender(planInput([item("photo", "b.jpg"), item("video", "missing.mp4")], { theme }));
    await expect(run(broken, "runner-broken")).rejects.toThrow("no file for missing.mp4");
    await expect(access(dir.path("runner-broken.mp4"))).rejects.toThrow();
    // The slots were given back: the next render runs.
    const again = await run(plan, "runner-again");
    expect(again.piecesRendered).toBe(0);
  });
  test("after a theme change only the captioned parts, the title cards and their crossfades are rendered again", async () => {
    const { store } = memoryStore();
    files["two-colour.mp4"] = await makeTwoColourClip(dir.path("two-colour.mp4"), { width: 320, height: 180, seconds: 6 });
    const theme = { ...planInput([]).theme, isCollage: false, scenes: [] };
    const media = [
      item("video", "two-colour.mp4", { durationSeconds: 6, hasAudio: false, contributorName: "Bo", caption: "Happy birthday!" }),
      item("photo", "a.jpg", { contributorName: "", caption: "" }),
      item("video", "clip.mp4", { contributorName: "", caption: "" }),
    ];
    const { sourcePath, assetPath } = context("theme-change");
    const run = (p: RenderPlan, name: string) =>
      runRender(p, { store, sourcePath, assetPath, workDir: dir.path(`${name}-work`), output: dir.path(`${name}.mp4`) });
    const before = planRender(planInput(media, { theme }));
    await run(before, "theme-before");

    // Another theme: its own box colour and type.
    const after = planRender(planInput(media, { theme: { ...theme, textBoxColor: "#202060e6", fontColor: "#ffeecc" } }));
    const second = await run(after, "theme-after");
    const [intro, clip, photo, other, outro] = after.segments;
    expect(photo!.parts.map((p) => p.kind)).toEqual(["plain"]);
    expect(other!.parts.map((p) => p.kind)).toEqual(["plain"]);
    const [caption, plain] = clip!.parts;
    expect([caption?.kind, plain?.kind]).toEqual(["caption", "plain"]);
    const crossfades = after.transitions.filter((t) => t.from === 0 || t.from === after.segments.length - 2);
    expect(second.renderedKeys.sort()).toEqual(
      [intro!.key, intro!.parts[0]!.key, caption!.key, outro!.key, outro!.parts[0]!.key, ...crossfades.map((t) => t.key)].sort(),
    );
    expect(second.piecesReused).toBe(piecesOf(after).length - second.piecesRendered);
    expect(await countVideoFrames(second.output)).toBe(after.totalFrames);

    // The box in the middle of the captioned part, over the clip's red half; gone in the plain part.
    const at = (part: { start: number; end: number }) => clip!.startFrame + Math.floor((part.start + part.end) / 2);
    const withBox = await frameAt(second.output, at(caption!), dir.path("theme-caption.png"));
    const withoutBox = await frameAt(second.output, at(plain!), dir.path("theme-plain.png"));
    // The render's own size (the plan's 720p): just left of the middle, in the lower third.
    const { width, height } = await sharp(withBox).metadata();
    const [x, y] = [width! / 2 - 10, Math.round(height! * 0.87)];
    expect(dominant(await pixelAt(withBox, x, y))).toBe("black");
    expect(dominant(await pixelAt(withoutBox, x, y))).toBe("red");
  });
});
