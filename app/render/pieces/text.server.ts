// Text drawn with sharp (Pango) in a theme's font: measured, wrapped to a width, capped at a
// number of lines with an ellipsis. Pango shapes every script and bidirectional text, which
// ffmpeg's drawtext does not, and the result is a PNG the video graphs overlay as is.

import sharp from "sharp";
import { findThemeFont } from "~/domain/built-in-themes";
import type { Rgba } from "~/domain/theme-colours";

export interface TextStyle {
  /** The font file, registered with Pango for this render. */
  fontFile: string | null;
  fontUrl: string;
  /** Pixels of the em square on the output frame. */
  sizePx: number;
  colour: Rgba;
  /** Baseline to baseline, as a multiple of `sizePx`. */
  lineHeight: number;
  align?: "left" | "centre";
}

export interface RenderedText {
  png: Buffer;
  width: number;
  height: number;
}

const escapeMarkup = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

const hexByte = (n: number) =>
  Math.round(Math.min(255, Math.max(0, n)))
    .toString(16)
    .padStart(2, "0");

// Organisers may only pick the fonts shipped with the themes; anything else is drawn in a plain sans.
function fontAttributes(fontUrl: string) {
  const font = findThemeFont(fontUrl);
  const family = escapeMarkup(font?.name ?? "sans-serif");
  return `font_family="${family}" font_weight="${font?.weight ?? 600}" font_style="${font?.style ?? "normal"}"`;
}

function markup(lines: readonly string[], style: TextStyle) {
  const { r, g, b, a } = style.colour;
  // An absolute line height (1024ths of a point; 1 pt = 1 px at 72 dpi) makes spacing exact for every font.
  const lineHeight = Math.max(1, Math.round(style.lineHeight * style.sizePx * 1024));
  const alpha = Math.max(1, Math.round(a * 65535));
  const attributes = `${fontAttributes(style.fontUrl)} size="${Math.round(style.sizePx * 1024)}" foreground="#${hexByte(r)}${hexByte(g)}${hexByte(b)}" fgalpha="${alpha}"`;
  return `<span ${attributes} line_height="${lineHeight}">${lines.map(escapeMarkup).join("\n")}</span>`;
}

/** Lines of text as a transparent PNG cropped to the ink. */
export async function renderText(lines: readonly string[], style: TextStyle): Promise<RenderedText> {
  const { data, info } = await sharp({
    text: {
      text: markup(lines, style),
      ...(style.fontFile ? { fontfile: style.fontFile } : {}),
      rgba: true,
      dpi: 72,
      align: style.align === "left" ? "left" : "centre",
    },
  })
    .png({ compressionLevel: 1 })
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
}

/** Width in pixels of one line of text. */
export async function measureLine(text: string, style: TextStyle) {
  if (!text.trim()) return 0;
  return (await renderText([text], style)).width;
}

export interface WrappedText {
  lines: string[];
  /** Whether words were left out (the last line then ends with an ellipsis). */
  truncated: boolean;
}

const ELLIPSIS = "…";

/**
 * Breaks text into at most `maxLines` lines no wider than `maxWidth`: at spaces, at the writer's
 * own line breaks, and inside a word only when the word alone is too wide. Text that does not
 * fit ends with an ellipsis. `measure` gives a line's width (sharp in production, any function
 * in tests).
 */
export async function wrapText(
  text: string,
  maxWidth: number,
  maxLines: number,
  measure: (line: string) => Promise<number>,
): Promise<WrappedText> {
  const paragraphs = text
    .split(/\r?\n/)
    .map((p) => p.split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0);
  const lines: string[] = [];
  let truncated = false;
  const fits = async (line: string) => (await measure(line)) <= maxWidth;

  outer: for (const paragraph of paragraphs) {
    let words = paragraph;
    while (words.length > 0) {
      if (lines.length === maxLines) {
        truncated = true;
        break outer;
      }
      const count = await largestFitting(words.length, (n) => fits(words.slice(0, n).join(" ")));
      if (count > 0) {
        lines.push(words.slice(0, count).join(" "));
        words = words.slice(count);
        continue;
      }
      // One word wider than the line: break it where it stops fitting.
      const chars = [...words[0]!];
      const taken = Math.max(1, await largestFitting(chars.length, (n) => fits(chars.slice(0, n).join(""))));
      lines.push(chars.slice(0, taken).join(""));
      words = [chars.slice(taken).join(""), ...words.slice(1)].filter(Boolean);
    }
  }
  if (truncated) lines[lines.length - 1] = await withEllipsis(lines[lines.length - 1]!, fits);
  return { lines, truncated };
}

/**
 * Like wrapText, but with lines of even length: the narrowest width that needs no more lines and
 * breaks no word that the full width kept whole. No single word left alone on a last line.
 */
export async function wrapBalanced(
  text: string,
  maxWidth: number,
  maxLines: number,
  measure: (line: string) => Promise<number>,
): Promise<WrappedText> {
  const widths = new Map<string, Promise<number>>();
  const cached = (line: string) => widths.get(line) ?? widths.set(line, measure(line)).get(line)!;
  const greedy = await wrapText(text, maxWidth, maxLines, cached);
  if (greedy.truncated || greedy.lines.length < 2) return greedy;
  const words = (wrapped: WrappedText) => wrapped.lines.join(" ").split(/\s+/).join(" ");
  let best = greedy;
  let [low, high] = [maxWidth / (greedy.lines.length + 1), maxWidth];
  for (let step = 0; step < 7; step += 1) {
    const width = (low + high) / 2;
    const candidate = await wrapText(text, width, maxLines, cached);
    if (!candidate.truncated && candidate.lines.length <= greedy.lines.length && words(candidate) === words(greedy)) {
      best = candidate;
      high = width;
    } else {
      low = width;
    }
  }
  return best;
}

async function withEllipsis(line: string, fits: (line: string) => Promise<boolean>) {
  const words = line.split(" ");
  const count = await largestFitting(words.length, (n) => fits(`${words.slice(0, n).join(" ")}${ELLIPSIS}`));
  if (count > 0) return `${words.slice(0, count).join(" ")}${ELLIPSIS}`;
  const chars = [...line];
  const taken = await largestFitting(chars.length, (n) => fits(`${chars.slice(0, n).join("")}${ELLIPSIS}`));
  return `${chars.slice(0, taken).join("")}${ELLIPSIS}`;
}

/** The largest n in 0…max for which `ok(n)` holds, given that it holds for every smaller n. */
async function largestFitting(max: number, ok: (n: number) => Promise<boolean>) {
  if (await ok(max)) return max;
  let [low, high] = [0, max]; // ok(low) holds (or low = 0), ok(high) does not
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await ok(middle)) low = middle;
    else high = middle;
  }
  return low;
}
