// Colours of a theme's captions (spec §3 Theme: fontColor, textBoxColor). Colours are CSS hex:
// #rgb, #rrggbb, or #rrggbbaa when the text box lets the picture show through.

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0–1. */
  a: number;
}

export const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** The colour as numbers, or null when it is not #rgb, #rrggbb or #rrggbbaa. */
export function parseHexColour(colour: string): Rgba | null {
  if (!HEX_COLOUR.test(colour)) return null;
  let hex = colour.slice(1).toLowerCase();
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join("");
  const byte = (i: number) => parseInt(hex.slice(i, i + 2), 16);
  return { r: byte(0), g: byte(2), b: byte(4), a: hex.length === 8 ? byte(6) / 255 : 1 };
}

/** One spelling per colour: lower-case #rrggbb, or #rrggbbaa when it is not opaque. */
export function normaliseHexColour(colour: string): string {
  const rgba = parseHexColour(colour);
  if (!rgba) throw new Error(`not a hex colour: ${colour}`);
  const hex = (n: number) => Math.round(n).toString(16).padStart(2, "0");
  const alpha = Math.round(rgba.a * 255);
  return `#${hex(rgba.r)}${hex(rgba.g)}${hex(rgba.b)}${alpha === 255 ? "" : hex(alpha)}`;
}

/** The #rrggbb part, as an `<input type="color">` wants it. */
export const opaqueHex = (colour: string) => normaliseHexColour(colour).slice(0, 7);

/** 0–100: how opaque the colour is, in whole percent. */
export const opacityPercent = (colour: string) => Math.round((parseHexColour(colour)?.a ?? 1) * 100);

/** #rrggbb with an opacity in percent (100 gives plain #rrggbb). */
export function withOpacity(colour: string, percent: number) {
  const alpha = Math.round((Math.min(100, Math.max(0, percent)) / 100) * 255);
  return normaliseHexColour(`${opaqueHex(colour)}${alpha.toString(16).padStart(2, "0")}`);
}

// WCAG 2.x relative luminance and contrast ratio.
function luminance({ r, g, b }: Rgba) {
  const channel = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

const over = (top: Rgba, bottom: Rgba): Rgba => ({
  r: top.r * top.a + bottom.r * (1 - top.a),
  g: top.g * top.a + bottom.g * (1 - top.a),
  b: top.b * top.a + bottom.b * (1 - top.a),
  a: 1,
});

function ratio(a: Rgba, b: Rgba) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 1 };
const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

/**
 * Contrast of caption text on its text box, in the worst case: a see-through box lies over
 * a photo that may be anything from black to white, so the box is judged over both.
 */
export function captionContrast(fontColour: string, textBoxColour: string) {
  const text = parseHexColour(fontColour);
  const box = parseHexColour(textBoxColour);
  if (!text || !box) return 1;
  return Math.min(
    ...[BLACK, WHITE].map((photo) => {
      const background = over(box, photo);
      return ratio(over(text, background), background);
    }),
  );
}

/** WCAG AA for body text: what the built-in themes meet. */
export const CAPTION_CONTRAST_GOAL = 4.5;
/**
 * WCAG AA for large text: the least an organiser's own theme may have. Captions are drawn at
 * 24 px or more on the frame, which is large text, and an unreadable caption spoils the video.
 */
export const CAPTION_CONTRAST_MINIMUM = 3;
