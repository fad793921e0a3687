import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { renderTextBox, renderTitleCard } from "~/render/pieces/cards.server";
import { renderCollage } from "~/render/pieces/collage.server";
import { measureLine } from "~/render/pieces/text.server";
import type { ThemeStyle } from "~/render/plan";
import { dominant, makeQuartersImage, makeTempDir, pixelAt } from "./support/media-fixtures";

const frame = { width: 1280, height: 720 };
const fontFile = path.resolve("public/fonts/themes/Inter-SemiBold.ttf");
const style: ThemeStyle = {
  introUrl: "/themes/x/intro.jpg",
  outroUrl: "/themes/x/outro.jpg",
  fontUrl: "/fonts/themes/Inter-SemiBold.ttf",
  fontColor: "#ffffff",
  fontSize: 48,
  fontLineSpacing: 1.3,
  textBoxColor: "#1d1b26cc",
  textBoxScale: 1,
};

let dir: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  dir = await makeTempDir("render-cards");
});
afterAll(() => dir.remove());

const size = async (file: string) => {
  const { width, height } = await sharp(file).metadata();
  return { width: width!, height: height! };
};

describe("caption boxes", () => {
  test("grow with the theme's textBoxScale, text and all", async () => {
    const box = { name: "Bo", message: "Happy birthday!" };
    const normal = await renderTextBox(box, style, frame, fontFile, dir.path("normal.png"));
    const large = await renderTextBox(box, { ...style, textBoxScale: 1.5 }, frame, fontFile, dir.path("large.png"));
    expect(await size(normal!.file)).toEqual({ width: normal!.width, height: normal!.height });
    expect(large!.width / normal!.width).toBeGreaterThan(1.35);
    expect(large!.width / normal!.width).toBeLessThan(1.65);
    expect(large!.height / normal!.height).toBeGreaterThan(1.35);
    // Lower third, centred, inside the frame.
    for (const placed of [normal!, large!]) {
      expect(placed.y).toBeGreaterThan(frame.height / 2);
      expect(placed.y + placed.height).toBeLessThan(frame.height);
      expect(Math.abs(placed.x + placed.width / 2 - frame.width / 2)).toBeLessThanOrEqual(1);
    }
  });

  test("scale with the output: a 1080p theme size is two thirds as big at 720p", async () => {
    const box = { name: "", message: "Love you" };
    const at720 = await renderTextBox(box, style, frame, fontFile, dir.path("720.png"));
    const at1080 = await renderTextBox(box, style, { width: 1920, height: 1080 }, fontFile, dir.path("1080.png"));
    expect(at720!.height / at1080!.height).toBeCloseTo(2 / 3, 1);
  });

  test("wrap a long message onto at most three lines, ending it with an ellipsis, never clipping it", async () => {
    const short = await renderTextBox({ name: "Bo", message: "Happy birthday!" }, style, frame, fontFile, dir.path("short.png"));
    const long = await renderTextBox(
      { name: "Bo", message: "Happy birthday Ana! ".repeat(30).trim() },
      style,
      frame,
      fontFile,
      dir.path("long.png"),
    );
    expect(long!.width).toBeLessThanOrEqual(frame.width * 0.9);
    expect(long!.x).toBeGreaterThanOrEqual(0);
    // Three message lines of 48 px at 1.3 line height (2/3 scale at 720p), more than the one-line box, less than four.
    const lineHeight = 48 * (2 / 3) * 1.3;
    expect(long!.height - short!.height).toBeGreaterThan(lineHeight * 1.5);
    expect(long!.height - short!.height).toBeLessThan(lineHeight * 3);
    // The text stays inside the box: its right-most column is still the box's colour.
    const { data, info } = await sharp(long!.file).raw().toBuffer({ resolveWithObject: true });
    const alphaAt = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3]!;
    expect(alphaAt(info.width - 2, Math.round(info.height / 2))).toBeGreaterThan(150);
  });

  test("draw in the theme's own font", async () => {
    const text = { sizePx: 40, colour: { r: 0, g: 0, b: 0, a: 1 }, lineHeight: 1.2 };
    const inter = await measureLine("Happy birthday Ana", { ...text, fontFile, fontUrl: style.fontUrl });
    const caveat = await measureLine("Happy birthday Ana", {
      ...text,
      fontFile: path.resolve("public/fonts/themes/Caveat-Bold.ttf"),
      fontUrl: "/fonts/themes/Caveat-Bold.ttf",
    });
    expect(Math.abs(inter - caveat) / inter).toBeGreaterThan(0.15); // a narrow handwriting face
  });

  test("are left out when there is nothing to write", async () => {
    expect(await renderTextBox({ name: " ", message: "" }, style, frame, fontFile, dir.path("none.png"))).toBeNull();
  });
});

describe("title cards and collages", () => {
  test("a title card covers the frame with the theme's picture and centres the heading on it", async () => {
    const background = dir.path("bg.jpg");
    await sharp({ create: { width: 800, height: 800, channels: 3, background: "#2050c0" } })
      .jpeg()
      .toFile(background);
    const card = await renderTitleCard(
      { heading: "Ana turns 30", subheading: "from all of us" },
      style,
      frame,
      fontFile,
      background,
      dir.path("card.jpg"),
    );
    expect(await size(card)).toEqual(frame);
    expect(dominant(await pixelAt(card, 5, 5))).toBe("blue");
    // White heading across the middle, between the edges of the picture.
    const { data, info } = await sharp(card).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let white = 0;
    for (let x = 0; x < info.width; x += 1) {
      for (let y = Math.round(info.height * 0.35); y < info.height * 0.65; y += 1) {
        const at = (y * info.width + x) * 3;
        if (data[at]! > 220 && data[at + 1]! > 220 && data[at + 2]! > 220) white += 1;
      }
    }
    expect(white).toBeGreaterThan(2000);
  });

  test("a collage lays 2 to 4 photos out over the whole frame", async () => {
    const photos = await Promise.all([1, 2, 3].map((i) => makeQuartersImage(dir.path(`photo-${i}.jpg`), 1920, 1080)));
    const collage = await renderCollage(photos, frame, dir.path("collage.jpg"));
    expect(await size(collage)).toEqual(frame);
    // The large cell on the left shows a photo's colours, the gutter between cells shows the dark background.
    expect(dominant(await pixelAt(collage, 100, 100))).not.toBe("black");
    await expect(renderCollage(photos.slice(0, 1), frame, dir.path("one.jpg"))).rejects.toThrow(RangeError);
  });
});
