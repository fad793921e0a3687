import { copyFile, readFile, writeFile } from "node:fs/promises";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_UPLOAD_LIMITS, UploadRejectedError, type UploadRejectionCode, validateUpload } from "~/media/validate.server";
import { HEIC_QUARTERS, makeAnimatedGif, makeClip, makePixelFloodPng, makeTempDir, makeTone, markRotated } from "./support/media-fixtures";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
let clip: string;

beforeAll(async () => {
  dir = await makeTempDir("validate");
  clip = await makeClip(dir.path("clip.mp4"), { seconds: 3, faststart: true });
});
afterAll(() => dir.remove());

async function rejection(promise: Promise<unknown>): Promise<UploadRejectedError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof UploadRejectedError)) throw new Error(`expected an UploadRejectedError, got ${String(error)}`);
  return error;
}

const expectRejected = async (promise: Promise<unknown>, code: UploadRejectionCode, message?: RegExp) => {
  const error = await rejection(promise);
  expect(error.code).toBe(code);
  if (message) expect(error.message).toMatch(message);
};

describe("accepting uploads by their content", () => {
  test("a phone-style portrait clip is a video with its display size, rotation and sound", async () => {
    const portrait = await markRotated(
      await makeClip(dir.path("landscape.mp4"), { width: 320, height: 180, seconds: 1 }),
      dir.path("portrait.mov"),
    );
    const upload = await validateUpload(portrait, { declaredName: "IMG_0001.MOV" });
    expect(upload).toMatchObject({ kind: "video", mime: "video/quicktime", width: 180, height: 320, hasAudio: true, codec: "h264" });
    expect([90, 270]).toContain(upload.rotation);
    expect(upload.duration).toBeCloseTo(1, 1);
    expect(upload.extensionMatchesContent).toBe(true);
  });

  test("a PNG named .mp4 is accepted as a photo", async () => {
    await sharp({ create: { width: 64, height: 48, channels: 3, background: "#c04040" } })
      .png()
      .toFile(dir.path("really-a-photo.mp4"));
    const upload = await validateUpload(dir.path("really-a-photo.mp4"), { declaredName: "holiday.mp4" });
    expect(upload).toMatchObject({ kind: "photo", mime: "image/png", width: 64, height: 48, duration: null, hasAudio: false });
    expect(upload.extensionMatchesContent).toBe(false);
  });

  test("an animated GIF is a short clip, a GIF of one frame a photo", async () => {
    const animated = await validateUpload(await makeAnimatedGif(dir.path("dance.gif"), { seconds: 2 }), { declaredName: "dance.gif" });
    expect(animated).toMatchObject({
      kind: "video",
      mime: "image/gif",
      width: 160,
      height: 120,
      hasAudio: false,
      codec: "gif",
      extensionMatchesContent: true,
    });
    expect(animated.duration).toBeCloseTo(2, 1);
    await sharp({ create: { width: 30, height: 20, channels: 3, background: "#40c040" } })
      .gif()
      .toFile(dir.path("still.gif"));
    expect(await validateUpload(dir.path("still.gif"))).toMatchObject({ kind: "photo", mime: "image/gif", duration: null });
  });

  test("an animated GIF longer than the clip limit is refused as too long", async () => {
    const gif = await makeAnimatedGif(dir.path("long-dance.gif"), { width: 40, height: 30, seconds: 3 });
    await expectRejected(
      validateUpload(gif, { limits: { ...DEFAULT_UPLOAD_LIMITS, maxClipSeconds: 2 } }),
      "TOO_LONG",
      /This animation is 3 seconds long/,
    );
  });

  test("a HEIC photo is taken, and a damaged one is unreadable", async () => {
    expect(await validateUpload(HEIC_QUARTERS)).toMatchObject({
      kind: "photo",
      mime: "image/heic",
      width: 64,
      height: 48,
      decodedPhoto: null,
    });
    const whole = await readFile(HEIC_QUARTERS);
    await writeFile(dir.path("cut-off.heic"), whole.subarray(0, Math.floor(whole.length * 0.8)));
    await expectRejected(validateUpload(dir.path("cut-off.heic")), "UNREADABLE");
  });

  test("a photo's size is its upright size", async () => {
    await sharp({ create: { width: 60, height: 40, channels: 3, background: "#4040c0" } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toFile(dir.path("sideways.jpg"));
    const upload = await validateUpload(dir.path("sideways.jpg"), { declaredName: "sideways.JPG" });
    expect(upload).toMatchObject({ kind: "photo", mime: "image/jpeg", width: 40, height: 60, rotation: 90, extensionMatchesContent: true });
  });
});

describe("refusing uploads", () => {
  test("a text file named .mp4", async () => {
    await writeFile(dir.path("notes.mp4"), "This is not a video.\n".repeat(20));
    await expectRejected(validateUpload(dir.path("notes.mp4"), { declaredName: "notes.mp4" }), "UNSUPPORTED_TYPE", /photo or a video/);
  });

  test("an empty file", async () => {
    await writeFile(dir.path("empty.jpg"), "");
    await expectRejected(validateUpload(dir.path("empty.jpg")), "EMPTY", /^This file is empty\.$/);
  });

  test("an MP4 cut off part-way, even with its index at the start", async () => {
    const whole = await readFile(clip);
    await writeFile(dir.path("truncated.mp4"), whole.subarray(0, Math.floor(whole.length * 0.3)));
    await expectRejected(validateUpload(dir.path("truncated.mp4")), "UNREADABLE", /^We could not read this file\. It may be damaged/);
  });

  test("an MP4 cut off before its index", async () => {
    const lateIndex = await readFile(await makeClip(dir.path("late-index.mp4"), { seconds: 1 }));
    await writeFile(dir.path("truncated-late.mp4"), lateIndex.subarray(0, Math.floor(lateIndex.length * 0.5)));
    await expectRejected(validateUpload(dir.path("truncated-late.mp4")), "UNREADABLE");
  });

  test("a PNG claiming 30000×30000 pixels, refused from its header", async () => {
    const flood = await makePixelFloodPng(dir.path("flood.png"));
    const before = process.memoryUsage().rss;
    await expectRejected(validateUpload(flood), "TOO_MANY_PIXELS", /30000 × 30000.*100 megapixels/);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 ** 2);
  });

  test("a clip longer than the limit", async () => {
    const limits = { ...DEFAULT_UPLOAD_LIMITS, maxClipSeconds: 2 };
    await expectRejected(validateUpload(clip, { limits }), "TOO_LONG", /at most 2 seconds/);
  });

  test("files larger than the limit for their kind", async () => {
    await expectRejected(
      validateUpload(clip, { limits: { ...DEFAULT_UPLOAD_LIMITS, maxVideoBytes: 1000 } }),
      "TOO_LARGE",
      /larger than 1000 bytes/,
    );
    await copyFile(dir.path("really-a-photo.mp4"), dir.path("photo.png"));
    await expectRejected(validateUpload(dir.path("photo.png"), { limits: { ...DEFAULT_UPLOAD_LIMITS, maxPhotoBytes: 10 } }), "TOO_LARGE");
  });

  test("sound without pictures", async () => {
    await expectRejected(
      validateUpload(await makeTone(dir.path("voice-note.m4a"), 1)),
      "UNSUPPORTED_TYPE",
      /Please upload a photo or a video/,
    );
  });

  test("an image format we do not take", async () => {
    await writeFile(
      dir.path("drawing.svg"),
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    await expectRejected(validateUpload(dir.path("drawing.svg")), "UNSUPPORTED_TYPE");
  });
});

test("the default limits are the product's: 2 GiB videos, 50 MiB photos, 10 minute clips, 100 MP", () => {
  expect(DEFAULT_UPLOAD_LIMITS).toEqual({
    maxVideoBytes: 2 * 1024 ** 3,
    maxPhotoBytes: 50 * 1024 ** 2,
    maxClipSeconds: 600,
    maxPhotoPixels: 100_000_000,
  });
});
