import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ZodError } from "zod";
import { InvalidPhotoEditError, editPhoto, photoRendition, thumbnails, upscalePhoto, videoPoster } from "~/media/images.server";
import { validateUpload } from "~/media/validate.server";
import { HEIC_QUARTERS, dominant, makeClip, makeQuartersImage, makeTempDir, pixelAt } from "./support/media-fixtures";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
let quarters: string;

beforeAll(async () => {
  dir = await makeTempDir("images");
  quarters = await makeQuartersImage(dir.path("quarters.png"), 300, 200);
});
afterAll(() => dir.remove());

const sizeOf = async (file: string) => {
  const { width, height, format } = await sharp(file).metadata();
  return { width, height, format };
};

describe("photo renditions", () => {
  test("a portrait photo is fitted in the frame on a blurred copy of itself", async () => {
    const portrait = await makeQuartersImage(dir.path("portrait.jpg"), 200, 400);
    const rendition = await photoRendition(portrait, dir.path("portrait-rendition.jpg"), { width: 640, height: 360 });
    expect(await sizeOf(rendition.path)).toEqual({ width: 640, height: 360, format: "jpeg" });
    // The photo is 180 wide in the middle: red top-left, white bottom-right of it.
    expect(dominant(await pixelAt(rendition.path, 250, 40))).toBe("red");
    expect(dominant(await pixelAt(rendition.path, 390, 320))).toBe("white");
    for (const x of [1, 638]) expect(dominant(await pixelAt(rendition.path, x, 180))).not.toBe("black");
  });

  test("a semi-transparent PNG shows white through its clear parts, not black", async () => {
    // A half-transparent red square in the middle of a fully transparent picture.
    const sticker = dir.path("sticker.png");
    await sharp({ create: { width: 320, height: 180, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([
        { input: { create: { width: 160, height: 90, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } } }, gravity: "centre" },
      ])
      .png()
      .toFile(sticker);
    const rendition = await photoRendition(sticker, dir.path("sticker-rendition.jpg"), { width: 640, height: 360 });
    const [clearR, clearG, clearB] = await pixelAt(rendition.path, 20, 20);
    expect(Math.min(clearR, clearG, clearB), "the clear corner").toBeGreaterThan(240);
    const [r, g, b] = await pixelAt(rendition.path, 320, 180);
    // Half red over white is pink: (255, 128, 128).
    expect(r).toBeGreaterThan(240);
    for (const channel of [g, b]) expect(Math.abs(channel - 128)).toBeLessThan(12);
  });

  test("an iPhone HEIC photo is decoded and comes out upright with its colours", async () => {
    const upload = await validateUpload(HEIC_QUARTERS, { declaredName: "IMG_0001.HEIC", workDir: dir.path("") });
    expect(upload).toMatchObject({ kind: "photo", mime: "image/heic", width: 64, height: 48, extensionMatchesContent: true });
    expect(upload.decodedPhoto).toBeTruthy();
    const rendition = await photoRendition(upload.decodedPhoto!, dir.path("heic-rendition.jpg"), { width: 640, height: 480 });
    expect(await sizeOf(rendition.path)).toEqual({ width: 640, height: 480, format: "jpeg" });
    expect(dominant(await pixelAt(rendition.path, 160, 120))).toBe("red");
    expect(dominant(await pixelAt(rendition.path, 480, 120))).toBe("green");
    expect(dominant(await pixelAt(rendition.path, 160, 360))).toBe("blue");
    expect(dominant(await pixelAt(rendition.path, 480, 360))).toBe("white");
    const [thumbnail] = await thumbnails(upload.decodedPhoto!, dir.path(""), { baseName: "heic", widths: [32] });
    expect(thumbnail).toMatchObject({ width: 32, height: 24 });
  });

  test("EXIF orientation is applied", async () => {
    const sideways = await makeQuartersImage(dir.path("sideways.jpg"), 400, 200, 6);
    const rendition = await photoRendition(sideways, dir.path("sideways-rendition.jpg"), { width: 640, height: 360 });
    // Turned clockwise, the stored bottom-left (blue) quarter is now top-left of the picture.
    expect(dominant(await pixelAt(rendition.path, 280, 40))).toBe("blue");
  });
});

describe("thumbnails and posters", () => {
  test("WebP and JPEG at 320 and 640 wide, keeping the shape", async () => {
    const wide = await makeQuartersImage(dir.path("wide.png"), 1000, 500);
    const written = await thumbnails(wide, dir.path(""), { baseName: "wide" });
    expect(written.map((t) => [path.basename(t.path), t.width, t.height])).toEqual([
      ["wide-320.webp", 320, 160],
      ["wide-320.jpg", 320, 160],
      ["wide-640.webp", 640, 320],
      ["wide-640.jpg", 640, 320],
    ]);
    expect((await sizeOf(dir.path("wide-640.webp"))).format).toBe("webp");
  });

  test("small pictures are not enlarged", async () => {
    const written = await thumbnails(quarters, dir.path(""), { baseName: "small" });
    expect(written.map((t) => t.width)).toEqual([300, 300, 300, 300]);
  });

  test("a clip's poster is a frame from early on, with its thumbnails", async () => {
    const clip = await makeClip(dir.path("clip.mp4"), { width: 320, height: 240, seconds: 2 });
    const { poster, thumbnails: thumbs } = await videoPoster(clip, dir.path("clip-poster.jpg"));
    expect(await sizeOf(poster.path)).toEqual({ width: 320, height: 240, format: "jpeg" });
    expect(thumbs.map((t) => path.basename(t.path))).toEqual([
      "clip-poster-320.webp",
      "clip-poster-320.jpg",
      "clip-poster-640.webp",
      "clip-poster-640.jpg",
    ]);
  });
});

describe("upscaling", () => {
  test("doubles both dimensions", async () => {
    const small = await makeQuartersImage(dir.path("tiny.jpg"), 120, 80);
    const result = await upscalePhoto(small, dir.path("tiny-2x.jpg"), 2);
    expect(await sizeOf(result.path)).toEqual({ width: 240, height: 160, format: "jpeg" });
  });

  test("refuses factors that would not enlarge or would go too far", async () => {
    await expect(upscalePhoto(quarters, dir.path("x.png"), 1)).rejects.toThrow(RangeError);
    await expect(upscalePhoto(quarters, dir.path("x.png"), 8)).rejects.toThrow(RangeError);
  });
});

describe("photo edits", () => {
  test("crop, then a quarter turn, then a mirror, in that order", async () => {
    const edited = await editPhoto(quarters, dir.path("edited.png"), {
      crop: { left: 0, top: 0, width: 300, height: 200 },
      rotate: 90,
      flipH: true,
    });
    expect({ width: edited.width, height: edited.height }).toEqual({ width: 200, height: 300 });
    // Turned clockwise: blue, red / white, green. Mirrored left↔right: red, blue / green, white.
    expect(dominant(await pixelAt(edited.path, 50, 50))).toBe("red");
    expect(dominant(await pixelAt(edited.path, 150, 50))).toBe("blue");
    expect(dominant(await pixelAt(edited.path, 50, 250))).toBe("green");
    expect(dominant(await pixelAt(edited.path, 150, 250))).toBe("white");
  });

  test("the crop is in the pixels of the upright photo", async () => {
    // Stored 300×200 with orientation 6: shown as 200×300, blue in the top-left quarter.
    const sideways = await makeQuartersImage(dir.path("edit-sideways.jpg"), 300, 200, 6);
    const edited = await editPhoto(sideways, dir.path("edit-sideways-crop.png"), { crop: { left: 10, top: 10, width: 80, height: 130 } });
    expect({ width: edited.width, height: edited.height }).toEqual({ width: 80, height: 130 });
    expect(dominant(await pixelAt(edited.path, 40, 65))).toBe("blue");
  });

  test("a flip after a half turn, and brightness and contrast", async () => {
    const edited = await editPhoto(quarters, dir.path("edited-2.png"), { rotate: 180, flipV: true, brightness: 0.5 });
    expect({ width: edited.width, height: edited.height }).toEqual({ width: 300, height: 200 });
    // Half turn: white, blue / green, red; then top↔bottom: green, red / white, blue; all darker.
    const [r, g, b] = await pixelAt(edited.path, 50, 50);
    expect(g).toBeGreaterThan(100);
    expect(g).toBeLessThan(150);
    expect(r + b).toBeLessThan(20);
  });

  test("a crop reaching outside the photo is refused", async () => {
    await expect(editPhoto(quarters, dir.path("bad.png"), { crop: { left: 250, top: 0, width: 100, height: 100 } })).rejects.toThrow(
      InvalidPhotoEditError,
    );
  });

  test("edits outside the allowed ranges are refused by the schema", async () => {
    await expect(editPhoto(quarters, dir.path("bad.png"), { rotate: 45 } as never)).rejects.toThrow(ZodError);
    await expect(editPhoto(quarters, dir.path("bad.png"), { brightness: 3 })).rejects.toThrow(ZodError);
  });
});
