// What processing learns about a clip from the decode that makes its rendition (docs/decisions/053):
// its dead air, which becomes its default trim, and what may disappoint about it. Real ffmpeg on
// clips made of stretches, as phones record them.
import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { prepareClip } from "~/media/clip-review.server";
import { photoRendition } from "~/media/images.server";
import { probeMedia } from "~/media/probe.server";
import { runFfmpeg } from "~/media/run.server";
import { renderSegmentPieces } from "~/render/pieces";
import { planRender } from "~/render/plan";
import { runRender } from "~/render/run.server";
import { type Stretch, makeSceneClip, makeSubjectPicture, skinIn } from "./support/clip-scenes";
import { ffmpeg, makeTempDir } from "./support/media-fixtures";
import { item, memoryStore, montageContext, planInput, profile } from "./support/montage";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
/** The title cards' picture. */
let background: string;
beforeAll(async () => {
  dir = await makeTempDir("clip-review");
  background = dir.path("background.jpg");
  await sharp({ create: { width: 640, height: 360, channels: 3, background: "#305080" } })
    .jpeg()
    .toFile(background);
});
afterAll(() => dir.remove());

const small = { width: 320, height: 180 };
let made = 0;

/** A clip of the stretches, processed as an upload is (at a small size): its rendition and review. */
async function processed(stretches: Stretch[]) {
  made += 1;
  const source = await makeSceneClip(dir.path(`source-${made}.mp4`), stretches);
  const rendition = dir.path(`rendition-${made}.mp4`);
  const prepared = await prepareClip(source, rendition, { ...small, workDir: dir.path(".") });
  return { ...prepared, file: rendition };
}

const speaking = (seconds: number): Stretch => ({ seconds, picture: "pattern", sound: "speech" });
const blackSilence = (seconds: number): Stretch => ({ seconds, picture: "black", sound: "silence" });

describe("a clip's dead air", () => {
  test("2 s of black silence at each end of a 4 s clip become its default trim: its video is as long as the 4 s clip's alone", async () => {
    const padded = await processed([blackSilence(2), speaking(4), blackSilence(2)]);
    const alone = await processed([speaking(4)]);
    expect(padded.rendition.duration).toBeCloseTo(8, 1);
    expect(padded.review.trimStart).toBeGreaterThan(1.7);
    expect(padded.review.trimStart).toBeLessThanOrEqual(2);
    expect(padded.review.trimEnd).toBeGreaterThanOrEqual(6);
    expect(padded.review.trimEnd).toBeLessThan(6.4);
    expect(alone.review).toMatchObject({ trimStart: 0, trimEnd: null });

    // Each as the one clip of a montage, with the trim it gave itself, rendered end to end.
    const videoOf = async (clip: typeof padded, name: string) => {
      const media = [
        item("video", clip.file, {
          durationSeconds: clip.rendition.duration,
          trimStart: clip.review.trimStart,
          trimEnd: clip.review.trimEnd,
        }),
      ];
      const plan = { ...planRender(planInput(media, { track: null })), profile };
      const { sourcePath, assetPath } = montageContext(dir, { [clip.file]: clip.file, background }, name);
      const { output } = await runRender(plan, {
        store: memoryStore().store,
        sourcePath,
        assetPath,
        workDir: dir.path(`${name}-work`),
        output: dir.path(`${name}.mp4`),
      });
      return (await probeMedia(output)).duration!;
    };
    const [paddedVideo, aloneVideo] = [await videoOf(padded, "padded"), await videoOf(alone, "alone")];
    expect(Math.abs(paddedVideo - aloneVideo)).toBeLessThanOrEqual(0.5);
  });

  test("speech over a black picture, and a silent picture that moves, are never cut", async () => {
    const talkingInTheDark = await processed([{ seconds: 1.5, picture: "black", sound: "speech" }, speaking(2)]);
    expect(talkingInTheDark.review).toMatchObject({ trimStart: 0, trimEnd: null });
    const quietStart = await processed([{ seconds: 1.5, picture: "pattern", sound: "silence" }, speaking(2)]);
    expect(quietStart.review).toMatchObject({ trimStart: 0, trimEnd: null });
  });

  test("a still picture with nothing said is cut like black", async () => {
    const frozen = await processed([{ seconds: 1.5, picture: "steady", sound: "silence" }, speaking(2.5)]);
    expect(frozen.review.trimStart).toBeGreaterThan(1.2);
    expect(frozen.review.trimStart).toBeLessThanOrEqual(1.5);
  });
});

describe("advice about a clip", () => {
  test("a well-lit, steady clip with someone speaking gets none", async () => {
    expect((await processed([speaking(3)])).review.advice).toEqual([]);
  });

  test.each([
    ["dark", [{ seconds: 3, picture: "dark", sound: "speech" }]],
    ["quiet", [{ seconds: 3, picture: "pattern", sound: "whisper" }]],
    ["short", [speaking(1.2)]],
    ["shaky", [{ seconds: 3, picture: "shaky", sound: "speech" }]],
  ] as const)("a %s clip is told so, and kept", async (advice, stretches) => {
    const clip = await processed([...stretches]);
    expect(clip.review.advice).toEqual([advice]);
    expect(clip.rendition.video).toMatchObject(small);
  });

  test("a steady picture of the same room is not shaky", async () => {
    expect((await processed([{ seconds: 3, picture: "steady", sound: "speech" }])).review.advice).toEqual([]);
  });
});

describe("a portrait clip's place in its fill", () => {
  /** The frame at `seconds` as RGB. */
  async function rgbFrame(file: string, seconds: number) {
    const raw = dir.path(`frame-${Math.random().toString(36).slice(2)}.rgb`);
    await ffmpeg(["-ss", String(seconds), "-i", file, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw]);
    return readFile(raw);
  }

  test.each([
    ["near the top", 0.1],
    ["near the bottom", 0.88],
  ] as const)("a face %s stays in, the picture a quarter larger than fitted whole", async (_, y) => {
    const picture = await makeSubjectPicture(dir.path(`portrait-${y}.png`), 360, 640, { x: 0.5, y });
    const source = dir.path(`portrait-${y}.mp4`);
    await ffmpeg([
      ...["-loop", "1", "-framerate", "30", "-t", "3", "-i", picture.file],
      ...["-f", "lavfi", "-i", "sine=frequency=220:sample_rate=48000:duration=3"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", source],
    ]);
    const clip = await prepareClip(source, dir.path(`portrait-${y}-out.mp4`), { ...small, workDir: dir.path(".") });
    // Found on the face (which is 16% of the picture's height), not in the middle.
    expect(Math.abs(clip.focus!.y - y)).toBeLessThan(0.1);
    const face = skinIn(await rgbFrame(dir.path(`portrait-${y}-out.mp4`), 1), small.width, small.height);
    // Fitted whole, the face would be 16% of the frame's height; framed, a quarter more.
    expect(face.bottom - face.top).toBeGreaterThan(0.16 * 1.15);
    expect(face.top).toBeGreaterThan(0);
    expect(face.bottom).toBeLessThan(1);
  });
});

describe("a photo's subject", () => {
  test("off-centre, it stays inside the frame through the whole of every camera move", async () => {
    const picture = await makeSubjectPicture(dir.path("subject.png"), 640, 360, { x: 0.9, y: 0.1 });
    const rendition = await photoRendition(picture.file, dir.path("subject.jpg"), small);
    // Found on the face (a 7% by 16% oval), not in the middle.
    expect(Math.abs(rendition.focus!.x - 0.9)).toBeLessThan(0.06);
    expect(Math.abs(rendition.focus!.y - 0.1)).toBeLessThan(0.1);
    const whole = skinIn(await sharp(rendition.path).removeAlpha().raw().toBuffer(), small.width, small.height).count;

    // Four photos in a row: a zoom out, the two pans and a zoom in, by their places.
    const photos = [0, 1, 2, 3].map(() => item("photo", "subject.jpg", { caption: "", contributorName: "", focus: rendition.focus }));
    const plan = planRender(planInput(photos, { track: null, theme: { ...planInput([]).theme, isCollage: false, scenes: [] } }));
    const scenes = plan.segments.filter((s) => s.kind === "photo");
    expect(new Set(scenes.map((s) => s.kind === "photo" && s.motion))).toEqual(new Set(["zoom-out", "pan-left", "pan-right", "zoom-in"]));
    for (const scene of scenes) {
      const files = { "subject.jpg": rendition.path };
      const pieces = await renderSegmentPieces(scene, montageContext(dir, files, `scene-${scene.index}`));
      const outputs = [pieces.head, ...scene.parts.map((p) => pieces.parts[p.key]), pieces.tail].filter((f): f is string => !!f);
      for (const output of outputs) {
        const raw = dir.path(`scene-${scene.index}.rgb`);
        await runFfmpeg(["-hide_banner", "-v", "error", "-y", "-i", output, "-f", "rawvideo", "-pix_fmt", "rgb24", raw]);
        const bytes = await readFile(raw);
        const frameBytes = small.width * small.height * 3;
        for (let at = 0; at < bytes.length; at += frameBytes) {
          const face = skinIn(bytes.subarray(at, at + frameBytes), small.width, small.height);
          const where = `${scene.kind === "photo" ? scene.motion : ""}, frame ${at / frameBytes} of ${output}`;
          // All of it, never cut by the frame's edge.
          expect(face.count, where).toBeGreaterThan(whole * 0.9);
          expect(face.left, where).toBeGreaterThan(0);
          expect(face.right, where).toBeLessThan(1);
          expect(face.top, where).toBeGreaterThan(0);
        }
      }
    }
  });
});
