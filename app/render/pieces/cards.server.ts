// The pictures a segment's graph overlays or shows: the caption box of an item (lower third)
// and the intro and outro title cards. Sizes follow the output frame: a theme's fontSize is in
// pixels of a 1080p frame, and textBoxScale scales the whole box, text included.

import sharp, { type OverlayOptions } from "sharp";
import { type Rgba, parseHexColour } from "~/domain/theme-colours";
import type { TextBox, ThemeStyle } from "../plan";
import { type TextStyle, measureLine, renderText, wrapBalanced, wrapText } from "./text.server";

export interface FrameSize {
  width: number;
  height: number;
}

/** A caption box as a PNG, with where it goes on the frame. */
export interface PlacedImage {
  file: string;
  width: number;
  height: number;
  x: number;
  y: number;
}

/** Lines of a message shown at most; longer messages end with an ellipsis. */
export const MESSAGE_MAX_LINES = 3;

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };
const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 1 };

export function colourOf(hex: string, fallback: Rgba): Rgba {
  return parseHexColour(hex) ?? fallback;
}

const lineHeightOf = (style: ThemeStyle) => Math.min(3, Math.max(0.8, style.fontLineSpacing || 1.2));
const cssRgb = ({ r, g, b }: Rgba) => `rgb(${Math.round(r)},${Math.round(g)},${Math.round(b)})`;
const isLight = ({ r, g, b }: Rgba) => 0.299 * r + 0.587 * g + 0.114 * b > 140;

/** The caption box of an item, or null when there is nothing to write. */
export async function renderTextBox(
  box: TextBox,
  style: ThemeStyle,
  frame: FrameSize,
  fontFile: string | null,
  output: string,
): Promise<PlacedImage | null> {
  const name = box.name.trim();
  const message = box.message.trim();
  if (!name && !message) return null;

  const scale = Math.max(0.2, style.textBoxScale || 1);
  const fontPx = Math.max(8, style.fontSize * (frame.height / 1080) * scale);
  const colour = colourOf(style.fontColor, WHITE);
  const base = { fontFile, fontUrl: style.fontUrl, lineHeight: lineHeightOf(style), align: "centre" as const };
  // The name is a smaller, softer line over the message; alone, it is the message.
  const nameStyle: TextStyle = message
    ? { ...base, sizePx: fontPx * 0.72, colour: { ...colour, a: colour.a * 0.8 } }
    : { ...base, sizePx: fontPx, colour };
  const messageStyle: TextStyle = { ...base, sizePx: fontPx, colour };

  const padX = Math.round(fontPx * 0.75);
  const padY = Math.round(fontPx * 0.5);
  const maxBoxWidth = Math.min(frame.width * 0.9, frame.width * 0.62 * scale);
  const maxText = Math.max(fontPx * 2, maxBoxWidth - 2 * padX);

  const blocks = [];
  if (name) {
    const { lines } = await wrapText(name, maxText, 1, (line) => measureLine(line, nameStyle));
    blocks.push(await renderText(lines, nameStyle));
  }
  if (message) {
    const { lines } = await wrapBalanced(message, maxText, MESSAGE_MAX_LINES, (line) => measureLine(line, messageStyle));
    blocks.push(await renderText(lines, messageStyle));
  }
  const gap = Math.round(fontPx * 0.4);
  const textWidth = Math.max(...blocks.map((b) => b.width));
  const textHeight = blocks.reduce((sum, b) => sum + b.height, 0) + gap * (blocks.length - 1);
  const width = even(Math.max(textWidth + 2 * padX, fontPx * 3));
  const height = even(textHeight + 2 * padY);
  const radius = Math.round(Math.min(fontPx * 0.4, height / 2));
  const fill = colourOf(style.textBoxColor, { r: 0, g: 0, b: 0, a: 0.75 });

  let top = padY;
  const layers = blocks.map((block) => {
    const layer = { input: block.png, left: Math.round((width - block.width) / 2), top };
    top += block.height + gap;
    return layer;
  });
  const background = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<rect width="${width}" height="${height}" rx="${radius}" ry="${radius}" fill="${cssRgb(fill)}" fill-opacity="${fill.a.toFixed(3)}"/></svg>`,
  );
  await sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: background, left: 0, top: 0 }, ...layers])
    .png({ compressionLevel: 1 })
    .toFile(output);
  // Lower third: centred, a little above the bottom edge, never off the frame.
  const x = Math.max(0, Math.round((frame.width - width) / 2));
  const y = Math.max(0, Math.round(frame.height - height - frame.height * 0.07));
  return { file: output, width, height, x, y };
}

const even = (n: number) => Math.max(2, Math.ceil(n / 2) * 2);

export interface TitleCardText {
  heading: string;
  subheading: string;
}

/**
 * An intro or outro card: the theme's picture covering the frame, the heading and the line under
 * it centred in the theme's font. A soft scrim and shadow in the opposite tone to the text keep
 * it readable on any picture. Written as a JPEG of the frame's size.
 */
export async function renderTitleCard(
  text: TitleCardText,
  style: ThemeStyle,
  frame: FrameSize,
  fontFile: string | null,
  backgroundFile: string | null,
  output: string,
): Promise<string> {
  const { width, height } = frame;
  const colour = colourOf(style.fontColor, WHITE);
  const shade = isLight(colour) ? BLACK : WHITE;
  const unit = Math.max(8, style.fontSize * (height / 1080));
  const base = { fontFile, fontUrl: style.fontUrl, lineHeight: lineHeightOf(style), align: "centre" as const };
  const headingStyle: TextStyle = { ...base, sizePx: unit * 2, colour };
  const subStyle: TextStyle = { ...base, sizePx: unit, colour: { ...colour, a: colour.a * 0.9 } };
  const maxWidth = width * 0.8;

  const blocks = [];
  for (const [line, textStyle] of [
    [text.heading, headingStyle],
    [text.subheading, subStyle],
  ] as const) {
    if (!line.trim()) continue;
    const { lines } = await wrapBalanced(line.trim(), maxWidth, 2, (l) => measureLine(l, textStyle));
    const rendered = await renderText(lines, textStyle);
    const shadow = await renderText(lines, { ...textStyle, colour: { ...shade, a: 0.7 } });
    blocks.push({ rendered, shadow, blur: textStyle.sizePx / 9 });
  }
  const gap = Math.round(unit * 0.6);
  const blockHeight = blocks.reduce((sum, b) => sum + b.rendered.height, 0) + gap * Math.max(0, blocks.length - 1);
  let top = Math.round((height - blockHeight) / 2);
  const layers: OverlayOptions[] = [{ input: scrim(frame, shade), left: 0, top: 0 }];
  for (const { rendered, shadow, blur } of blocks) {
    const left = Math.round((width - rendered.width) / 2);
    const margin = Math.ceil(blur * 3);
    const softShadow = await sharp(shadow.png)
      .extend({ top: margin, bottom: margin, left: margin, right: margin, background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .blur(Math.max(0.3, blur))
      .png({ compressionLevel: 1 })
      .toBuffer();
    const drop = Math.round(blur / 2);
    layers.push({ input: softShadow, left: left - margin, top: top - margin + drop });
    layers.push({ input: rendered.png, left, top });
    top += rendered.height + gap;
  }
  await backgroundOf(backgroundFile, frame)
    .composite(layers)
    .flatten({ background: "#000000" })
    .jpeg({ quality: 92, chromaSubsampling: "4:2:0" })
    .toFile(output);
  return output;
}

function backgroundOf(file: string | null, { width, height }: FrameSize) {
  if (file)
    return sharp(file, { limitInputPixels: 100_000_000 })
      .autoOrient()
      .resize(width, height, { fit: "cover", position: "centre" })
      .removeAlpha();
  return sharp({ create: { width, height, channels: 3, background: "#1f1b2e" } });
}

/** A soft oval of the shade colour behind the text, fading out towards the edges. */
function scrim({ width, height }: FrameSize, shade: Rgba) {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<defs><radialGradient id="s" cx="50%" cy="50%" r="60%">` +
      `<stop offset="0%" stop-color="${cssRgb(shade)}" stop-opacity="0.45"/>` +
      `<stop offset="60%" stop-color="${cssRgb(shade)}" stop-opacity="0.2"/>` +
      `<stop offset="100%" stop-color="${cssRgb(shade)}" stop-opacity="0.05"/></radialGradient></defs>` +
      `<rect width="${width}" height="${height}" fill="url(#s)"/></svg>`,
  );
}
