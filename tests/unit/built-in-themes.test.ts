import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, test } from "vitest";
import {
  BUILT_IN_THEMES,
  builtInThemeLook,
  COLLAGE_PHOTOS,
  DEFAULT_THEME_SLUG,
  findBuiltInTheme,
  findThemeFont,
  previewUrlFor,
  THEME_BACKGROUND_URLS,
  THEME_FONTS,
  themeArtUrl,
} from "~/domain/built-in-themes";
import {
  CAPTION_CONTRAST_GOAL,
  captionContrast,
  normaliseHexColour,
  opacityPercent,
  parseHexColour,
  withOpacity,
} from "~/domain/theme-colours";

const PUBLIC = path.resolve(__dirname, "../../public");
const onDisk = (url: string) => path.join(PUBLIC, url);

describe("the built-in themes", () => {
  test("there are six or more, with unique slugs and names, and the default is one of them", () => {
    expect(BUILT_IN_THEMES.length).toBeGreaterThanOrEqual(6);
    expect(new Set(BUILT_IN_THEMES.map((t) => t.slug)).size).toBe(BUILT_IN_THEMES.length);
    expect(new Set(BUILT_IN_THEMES.map((t) => t.name)).size).toBe(BUILT_IN_THEMES.length);
    expect(findBuiltInTheme(DEFAULT_THEME_SLUG)).not.toBeNull();
    for (const theme of BUILT_IN_THEMES) expect(theme.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  test.each(BUILT_IN_THEMES.map((t) => [t.slug, t] as const))("%s uses a shipped font and sensible sizes", (_slug, theme) => {
    expect(findThemeFont(theme.fontUrl)).not.toBeNull();
    expect(theme.fontSize).toBeGreaterThanOrEqual(40);
    expect(theme.fontSize).toBeLessThanOrEqual(64);
    expect(theme.fontLineSpacing).toBeGreaterThanOrEqual(1);
    expect(theme.fontLineSpacing).toBeLessThanOrEqual(1.5);
    expect(theme.textBoxScale).toBeGreaterThanOrEqual(0.8);
    expect(theme.textBoxScale).toBeLessThanOrEqual(1.2);
  });

  test.each(BUILT_IN_THEMES.map((t) => [t.slug, t] as const))("%s captions have 4.5:1 contrast or more over any photo", (_slug, theme) => {
    expect(parseHexColour(theme.fontColor)).not.toBeNull();
    expect(parseHexColour(theme.textBoxColor)).not.toBeNull();
    expect(captionContrast(theme.fontColor, theme.textBoxColor)).toBeGreaterThanOrEqual(CAPTION_CONTRAST_GOAL);
  });

  test("collage themes have collage scenes of 2 to 4 photos, and the others have none", () => {
    const collages = BUILT_IN_THEMES.filter((t) => t.isCollage);
    expect(collages.length).toBeGreaterThanOrEqual(2);
    for (const theme of BUILT_IN_THEMES) {
      const collageScenes = theme.scenes.filter((s) => s.kind === "collage");
      expect(theme.scenes.length).toBeGreaterThan(0);
      expect(collageScenes.length > 0).toBe(theme.isCollage);
      for (const scene of collageScenes) {
        expect(scene.photos).toBeGreaterThanOrEqual(COLLAGE_PHOTOS.min);
        expect(scene.photos).toBeLessThanOrEqual(COLLAGE_PHOTOS.max);
      }
    }
  });

  test("every shipped font file is on disk with its licence", () => {
    expect(fs.existsSync(path.join(PUBLIC, "fonts/themes/OFL.txt"))).toBe(true);
    for (const font of THEME_FONTS) expect(fs.statSync(onDisk(font.url)).size, font.url).toBeGreaterThan(10_000);
  });

  test("the backgrounds a theme may use are exactly the built-ins' intros and outros", () => {
    expect(THEME_BACKGROUND_URLS).toHaveLength(BUILT_IN_THEMES.length * 2);
    const golden = builtInThemeLook(findBuiltInTheme("golden-hour")!);
    expect(golden.introUrl).toBe("/themes/golden-hour/intro.jpg");
    expect(THEME_BACKGROUND_URLS).toContain(golden.outroUrl);
    expect(previewUrlFor(golden.outroUrl)).toBe("/themes/golden-hour/preview.jpg");
    expect(previewUrlFor("https://example.com/themes/x/intro.jpg")).toBeNull();
  });
});

describe("the built-in themes' pictures", () => {
  const pictures = BUILT_IN_THEMES.flatMap((theme) =>
    (["intro", "outro", "preview"] as const).map((kind) => [`${theme.slug}/${kind}`, theme, kind] as const),
  );

  test.each(pictures)("%s.jpg is a JPEG of the right size and under 250 KB", async (_name, theme, kind) => {
    const file = onDisk(themeArtUrl(theme.slug, kind));
    const meta = await sharp(file).metadata();
    expect(meta.format).toBe("jpeg");
    expect([meta.width, meta.height]).toEqual(kind === "preview" ? [480, 270] : [1920, 1080]);
    expect(fs.statSync(file).size).toBeLessThan(250 * 1024);
  });

  test.each(pictures.filter(([, , kind]) => kind !== "preview"))(
    "the middle of %s.jpg, where the names are written, is calm and reads in the theme's font colour",
    async (_name, theme, kind) => {
      const file = onDisk(themeArtUrl(theme.slug, kind));
      // stats() reads the whole input, so the middle is cut out into a picture of its own first.
      const middleOnly = await sharp(file).extract({ left: 576, top: 378, width: 768, height: 324 }).png().toBuffer();
      const channels = (await sharp(middleOnly).stats()).channels.slice(0, 3);
      const [r, g, b] = channels.map((c) => Math.round(c.mean));
      const middle = normaliseHexColour(`#${[r, g, b].map((v) => v!.toString(16).padStart(2, "0")).join("")}`);
      expect(captionContrast(theme.fontColor, middle)).toBeGreaterThanOrEqual(CAPTION_CONTRAST_GOAL);
      // Calm: no busy pattern behind the title.
      for (const channel of channels) expect(channel.stdev).toBeLessThan(20);
    },
  );
});

describe("caption colours", () => {
  test("reads #rgb, #rrggbb and #rrggbbaa, and nothing else", () => {
    expect(parseHexColour("#fff")).toEqual({ r: 255, g: 255, b: 255, a: 1 });
    expect(parseHexColour("#1F5FD6")).toEqual({ r: 31, g: 95, b: 214, a: 1 });
    expect(parseHexColour("#00000080")?.a).toBeCloseTo(128 / 255);
    for (const bad of ["fff", "#ffff", "#12345", "red", "#gggggg", "url(x)"]) expect(parseHexColour(bad), bad).toBeNull();
  });

  test("writes each colour one way", () => {
    expect(normaliseHexColour("#ABC")).toBe("#aabbcc");
    expect(normaliseHexColour("#112233ff")).toBe("#112233");
    expect(normaliseHexColour("#112233CC")).toBe("#112233cc");
    expect(withOpacity("#112233", 80)).toBe("#112233cc");
    expect(withOpacity("#112233cc", 100)).toBe("#112233");
    expect(opacityPercent("#112233cc")).toBe(80);
  });

  test("judges a see-through box over the worst photo", () => {
    expect(captionContrast("#000000", "#ffffff")).toBeCloseTo(21);
    expect(captionContrast("#ffffff", "#ffffff")).toBeCloseTo(1);
    // White on a half-clear black box is fine over a dark photo, poor over a white one.
    expect(captionContrast("#ffffff", "#00000080")).toBeLessThan(4.5);
    expect(captionContrast("#ffffff", "#000000e6")).toBeGreaterThan(10);
  });
});
