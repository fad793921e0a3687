// The themes every organiser can choose from (spec §3 Theme). They are defined here, written to
// the database at start-up by slug, and their intro, outro and preview pictures are drawn by
// scripts/make-theme-art.ts into public/themes/{slug}/. An organiser's own theme is a copy of
// one of them and may only use the fonts and pictures shipped here.

import type { ThemeScene } from "drizzle/schema/render";

export type { ThemeScene };

/** A font shipped in public/fonts/themes (SIL Open Font License, see OFL.txt there). */
export interface ThemeFont {
  url: string;
  /** The family name people know it by. */
  name: string;
  /** The family the page declares for it, so a theme's look can be shown in its own font. */
  cssFamily: string;
  weight: number;
  style: "normal" | "italic";
}

const font = (file: string, name: string, weight: number, style: ThemeFont["style"] = "normal"): ThemeFont => ({
  url: `/fonts/themes/${file}`,
  name,
  cssFamily: `Chorus Theme ${name}`,
  weight,
  style,
});

export const THEME_FONTS: readonly ThemeFont[] = [
  font("Fraunces-SemiBold.ttf", "Fraunces", 600),
  font("PlayfairDisplay-BoldItalic.ttf", "Playfair Display", 700, "italic"),
  font("DMSerifDisplay-Regular.ttf", "DM Serif Display", 400),
  font("Caveat-Bold.ttf", "Caveat", 700),
  font("Pacifico-Regular.ttf", "Pacifico", 400),
  font("JosefinSans-Bold.ttf", "Josefin Sans", 700),
  font("SpaceGrotesk-SemiBold.ttf", "Space Grotesk", 600),
  font("Inter-SemiBold.ttf", "Inter", 600),
];

export const findThemeFont = (url: string) => THEME_FONTS.find((f) => f.url === url) ?? null;

/** The look of a theme: every spec field but the name and visibility. */
export interface ThemeLook {
  introUrl: string;
  outroUrl: string;
  fontUrl: string;
  fontColor: string;
  /** Pixels on a 1080p frame; the renderer scales it for smaller outputs. */
  fontSize: number;
  /** Line height as a multiple of the font size. */
  fontLineSpacing: number;
  textBoxColor: string;
  /** 1 is the text box's usual size. */
  textBoxScale: number;
  isCollage: boolean;
  scenes: ThemeScene[];
}

export interface BuiltInTheme extends ThemeLook {
  slug: string;
  name: string;
  /** One line on its mood, for the picker. */
  description: string;
  /** One of the showier looks: rendering with it needs the premium finish (docs/decisions/018). */
  premium: boolean;
}

/** A built-in theme as designed here: its pictures are found by its slug. */
type BuiltInDesign = Omit<BuiltInTheme, "introUrl" | "outroUrl">;

export type ThemeArtKind = "intro" | "outro" | "preview";

/** Where a built-in theme's pictures are served from (public/themes/{slug}/{kind}.jpg). */
export const themeArtUrl = (slug: string, kind: ThemeArtKind) => `/themes/${slug}/${kind}.jpg`;

/** The picker's small picture for a theme whose intro is one of the shipped backgrounds. */
export function previewUrlFor(introUrl: string) {
  const match = /^\/themes\/([a-z0-9-]+)\/(?:intro|outro)\.jpg$/.exec(introUrl);
  return match ? themeArtUrl(match[1]!, "preview") : null;
}

/** Collage scenes put 2 to 4 photos in one frame (spec §3 Theme.scenes). */
export const COLLAGE_PHOTOS = { min: 2, max: 4 } as const;

const DESIGNS: BuiltInDesign[] = [
  {
    slug: "golden-hour",
    name: "Golden Hour",
    description: "Warm late-afternoon light and a soft serif.",
    premium: false,
    fontUrl: "/fonts/themes/Fraunces-SemiBold.ttf",
    fontColor: "#3b2308",
    fontSize: 52,
    fontLineSpacing: 1.2,
    textBoxColor: "#fff4e0eb",
    textBoxScale: 1,
    isCollage: false,
    scenes: [{ kind: "single" }],
  },
  {
    slug: "confetti",
    name: "Confetti",
    description: "Bright confetti and a bouncy script, for a party.",
    premium: true,
    fontUrl: "/fonts/themes/Pacifico-Regular.ttf",
    fontColor: "#ffffff",
    fontSize: 46,
    fontLineSpacing: 1.35,
    textBoxColor: "#7a1f5ce6",
    textBoxScale: 1.05,
    isCollage: false,
    scenes: [{ kind: "single" }],
  },
  {
    slug: "classic-ivory",
    name: "Classic Ivory",
    description: "Ivory paper, fine gold lines and an elegant italic.",
    premium: false,
    fontUrl: "/fonts/themes/PlayfairDisplay-BoldItalic.ttf",
    fontColor: "#2e2418",
    fontSize: 50,
    fontLineSpacing: 1.25,
    textBoxColor: "#fbf6ecf2",
    textBoxScale: 0.95,
    isCollage: false,
    scenes: [{ kind: "single" }],
  },
  {
    slug: "midnight",
    name: "Midnight",
    description: "Deep navy, starlight and a bold display serif.",
    premium: false,
    fontUrl: "/fonts/themes/DMSerifDisplay-Regular.ttf",
    fontColor: "#f7efd9",
    fontSize: 54,
    fontLineSpacing: 1.2,
    textBoxColor: "#0e1733e6",
    textBoxScale: 1,
    isCollage: false,
    scenes: [{ kind: "single" }],
  },
  {
    slug: "handwritten-notes",
    name: "Handwritten Notes",
    description: "Lined paper and handwriting, like a card passed around.",
    premium: false,
    fontUrl: "/fonts/themes/Caveat-Bold.ttf",
    fontColor: "#1d2b4f",
    fontSize: 60,
    fontLineSpacing: 1.1,
    textBoxColor: "#fffcf0f2",
    textBoxScale: 1,
    isCollage: false,
    scenes: [{ kind: "single" }],
  },
  {
    slug: "modern-mono",
    name: "Modern Mono",
    description: "Black, white and a clean geometric sans.",
    premium: false,
    fontUrl: "/fonts/themes/SpaceGrotesk-SemiBold.ttf",
    fontColor: "#ffffff",
    fontSize: 46,
    fontLineSpacing: 1.3,
    textBoxColor: "#111111d9",
    textBoxScale: 0.9,
    isCollage: false,
    scenes: [{ kind: "single" }],
  },
  {
    slug: "garden-collage",
    name: "Garden Collage",
    description: "Leaves and petals; photos shared two and three to a frame.",
    premium: true,
    fontUrl: "/fonts/themes/JosefinSans-Bold.ttf",
    fontColor: "#ffffff",
    fontSize: 46,
    fontLineSpacing: 1.3,
    textBoxColor: "#2d5a36e6",
    textBoxScale: 0.9,
    isCollage: true,
    scenes: [{ kind: "collage", photos: 3 }, { kind: "single" }, { kind: "collage", photos: 2 }],
  },
  {
    slug: "scrapbook",
    name: "Scrapbook",
    description: "Kraft paper and tape; photos pinned up in twos and fours.",
    premium: true,
    fontUrl: "/fonts/themes/Inter-SemiBold.ttf",
    fontColor: "#2b2b2b",
    fontSize: 44,
    fontLineSpacing: 1.3,
    textBoxColor: "#fff8e6f2",
    textBoxScale: 0.9,
    isCollage: true,
    scenes: [{ kind: "collage", photos: 2 }, { kind: "single" }, { kind: "collage", photos: 4 }, { kind: "single" }],
  },
];

export const BUILT_IN_THEMES: readonly BuiltInTheme[] = DESIGNS.map((design) => ({
  ...design,
  introUrl: themeArtUrl(design.slug, "intro"),
  outroUrl: themeArtUrl(design.slug, "outro"),
}));

/** The theme an event has until its organiser chooses one. */
export const DEFAULT_THEME_SLUG = "golden-hour";

export const findBuiltInTheme = (slug: string) => BUILT_IN_THEMES.find((t) => t.slug === slug) ?? null;

/** Just the look of anything that has one (a stored theme, a built-in): the fields of ThemeLook. */
export const themeLookOf = (theme: ThemeLook): ThemeLook => ({
  introUrl: theme.introUrl,
  outroUrl: theme.outroUrl,
  fontUrl: theme.fontUrl,
  fontColor: theme.fontColor,
  fontSize: theme.fontSize,
  fontLineSpacing: theme.fontLineSpacing,
  textBoxColor: theme.textBoxColor,
  textBoxScale: theme.textBoxScale,
  isCollage: theme.isCollage,
  scenes: theme.scenes,
});

/** A built-in theme as it is stored: the spec's fields, its slug and whether it is premium. */
export const builtInThemeLook = (theme: BuiltInTheme): ThemeLook & { slug: string; name: string; isPremium: boolean } => ({
  slug: theme.slug,
  name: theme.name,
  isPremium: theme.premium,
  ...themeLookOf(theme),
});

/** The intro and outro pictures of the premium built-ins: a theme that shows one is premium too. */
export const PREMIUM_BACKGROUND_URLS: readonly string[] = BUILT_IN_THEMES.filter((t) => t.premium).flatMap((t) => [t.introUrl, t.outroUrl]);

/** Every intro and outro picture shipped: the only backgrounds a theme may use. */
export const THEME_BACKGROUND_URLS: readonly string[] = BUILT_IN_THEMES.flatMap((t) => [t.introUrl, t.outroUrl]);
