import path from "node:path";
import * as fontkit from "fontkit";
import qrcode from "qrcode-generator";
import { addressLines, type PostalAddress } from "~/domain/postal-address";
import type { PostcardTemplate } from "~/domain/postcard";
import { singleton } from "~/lib/singleton.server";

// The card itself (docs/decisions/030-postcards.md): one layout of each side, in points, as shapes that
// postcard-render.server.ts draws twice: as the print PDF (pdfkit) and as the preview SVG. Text is set as the glyph
// outlines of the fonts the site ships, measured with those fonts, so the preview shows the very lines,
// breaks and QR code that are printed. A 4×6 card is printed 6.25×4.25 in: 1/8 in of bleed each side.

const INCH = 72;
export const CARD = { width: 6.25 * INCH, height: 4.25 * INCH };
const BLEED = 0.125 * INCH;
const SAFE = BLEED + 0.1875 * INCH;

/** The print service's ink-free zone on the back, where it prints the address and postage. */
export const ADDRESS_ZONE = { x: 2.5665 * INCH, y: 1.5 * INCH, width: 3.2835 * INCH, height: 2.375 * INCH };

/** The message column, left of the address zone and above the QR code. */
const MESSAGE = { x: SAFE, y: SAFE, width: ADDRESS_ZONE.x - SAFE - 0.15 * INCH, size: 9, leading: 12 };
const QR_SIZE = 0.85 * INCH;
const QR_TOP = CARD.height - SAFE - QR_SIZE;
export const MESSAGE_LINES = Math.floor((QR_TOP - 0.15 * INCH - MESSAGE.y) / MESSAGE.leading);

const fontFile = (name: string) => path.resolve(process.cwd(), "public", "fonts", "themes", name);
type FontKey = "heading" | "body";
export const fonts = () =>
  singleton("postcardFonts", () => ({
    heading: fontkit.openSync(fontFile("Fraunces-SemiBold.ttf")) as fontkit.Font,
    body: fontkit.openSync(fontFile("Inter-SemiBold.ttf")) as fontkit.Font,
  }));

/** Text the font can draw: a character it has no glyph for becomes "?". */
export function drawable(key: FontKey, text: string) {
  const font = fonts()[key];
  return Array.from(text.normalize("NFC"), (char) =>
    /\s/.test(char) || font.hasGlyphForCodePoint(char.codePointAt(0)!) ? char : "?",
  ).join("");
}

const widthOf = (key: FontKey, size: number, text: string) => {
  const font = fonts()[key];
  return (font.layout(text).advanceWidth * size) / font.unitsPerEm;
};

/** Breaks text into lines no wider than `width`, keeping the writer's own line breaks; a word too long for a line is cut. */
export function wrapText(key: FontKey, size: number, width: number, text: string): string[] {
  const lines: string[] = [];
  for (const paragraph of drawable(key, text).replace(/\r\n?/g, "\n").split("\n")) {
    let line = "";
    for (const word of paragraph.split(/[ \t]+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (widthOf(key, size, candidate) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = word;
      while (widthOf(key, size, line) > width) {
        let cut = line.length - 1;
        while (cut > 1 && widthOf(key, size, line.slice(0, cut)) > width) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    lines.push(line);
  }
  return lines;
}

/** How the message sits on the card: its lines, and how many characters fit when it is too long. */
export function fitMessage(message: string) {
  const lines = wrapText("body", MESSAGE.size, MESSAGE.width, message.trim());
  if (lines.length <= MESSAGE_LINES) return { lines, fits: true as const, maxLines: MESSAGE_LINES };
  // What fits: the characters of the lines the card has room for (spaces and breaks between them counted once).
  const fitting = lines.slice(0, MESSAGE_LINES).reduce((sum, line) => sum + line.length + 1, -1);
  return { lines, fits: false as const, maxLines: MESSAGE_LINES, fittingCharacters: Math.max(0, fitting) };
}

export type Shape =
  | { kind: "rect"; x: number; y: number; width: number; height: number; fill: string; dashed?: boolean }
  | { kind: "circle"; cx: number; cy: number; r: number; fill: string }
  | { kind: "text"; font: FontKey; size: number; x: number; y: number; fill: string; text: string; anchor?: "middle" }
  | { kind: "image"; x: number; y: number; width: number; height: number; jpeg: Buffer };

export interface Side {
  shapes: Shape[];
}

export interface PostcardArt {
  template: PostcardTemplate;
  headline: string;
  message: string;
  /** The page the QR code opens: the recipient's own link to the Chorus. */
  qrUrl: string;
  /** The poster frame as a JPEG cropped to the card, for the "poster" template. */
  poster: Buffer | null;
  address: PostalAddress | null;
}

function frontOf(art: PostcardArt): Side {
  const { template } = art;
  const shapes: Shape[] = [{ kind: "rect", x: 0, y: 0, width: CARD.width, height: CARD.height, fill: template.background }];
  const titleLines = wrapText("heading", 26, CARD.width - 2 * SAFE, art.headline).slice(0, 3);
  if (template.kind === "poster" && art.poster) {
    shapes.push({ kind: "image", x: 0, y: 0, width: CARD.width, height: CARD.height, jpeg: art.poster });
    const band = 22 + titleLines.length * 30;
    shapes.push({ kind: "rect", x: 0, y: CARD.height - band - BLEED, width: CARD.width, height: band + BLEED, fill: "#000000cc" });
    titleLines.forEach((line, i) =>
      shapes.push({
        kind: "text",
        font: "heading",
        size: 26,
        x: CARD.width / 2,
        y: CARD.height - band - BLEED + 36 + i * 30,
        fill: template.ink,
        text: line,
        anchor: "middle",
      }),
    );
    return { shapes };
  }
  if (template.id === "confetti") {
    const dots = [
      [40, 50, 14],
      [400, 40, 20],
      [70, 250, 22],
      [380, 260, 12],
      [230, 30, 8],
      [330, 150, 6],
      [120, 140, 7],
    ] as const;
    for (const [cx, cy, r] of dots) shapes.push({ kind: "circle", cx, cy, r, fill: template.accent });
  } else if (template.id === "meadow") {
    shapes.push({ kind: "circle", cx: 110, cy: 560, r: 330, fill: template.accent });
    shapes.push({ kind: "circle", cx: 400, cy: 600, r: 340, fill: "#b5c99a" });
  } else {
    shapes.push({ kind: "rect", x: SAFE, y: CARD.height / 2 + 50, width: CARD.width - 2 * SAFE, height: 2, fill: template.accent });
  }
  const top = CARD.height / 2 - (titleLines.length * 30) / 2 + 20;
  titleLines.forEach((line, i) =>
    shapes.push({
      kind: "text",
      font: "heading",
      size: 26,
      x: CARD.width / 2,
      y: top + i * 30,
      fill: template.ink,
      text: line,
      anchor: "middle",
    }),
  );
  return { shapes };
}

function backOf(art: PostcardArt, { proof }: { proof: boolean }): Side {
  const shapes: Shape[] = [{ kind: "rect", x: 0, y: 0, width: CARD.width, height: CARD.height, fill: "#ffffff" }];
  fitMessage(art.message)
    .lines.slice(0, MESSAGE_LINES)
    .forEach((line, i) =>
      shapes.push({
        kind: "text",
        font: "body",
        size: MESSAGE.size,
        x: MESSAGE.x,
        y: MESSAGE.y + MESSAGE.size + i * MESSAGE.leading,
        fill: "#1f1a17",
        text: line,
      }),
    );
  const qr = qrcode(0, "M");
  qr.addData(art.qrUrl);
  qr.make();
  const count = qr.getModuleCount();
  const cell = QR_SIZE / count;
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (qr.isDark(row, col))
        shapes.push({
          kind: "rect",
          x: SAFE + col * cell,
          y: QR_TOP + row * cell,
          width: cell + 0.01,
          height: cell + 0.01,
          fill: "#000000",
        });
    }
  }
  shapes.push({
    kind: "text",
    font: "body",
    size: 7,
    x: SAFE + QR_SIZE + 8,
    y: QR_TOP + QR_SIZE / 2,
    fill: "#6b625c",
    text: "Scan to watch your Chorus",
  });
  shapes.push({
    kind: "text",
    font: "heading",
    size: 13,
    x: ADDRESS_ZONE.x + 6,
    y: SAFE + 14,
    fill: art.template.kind === "poster" ? "#1f1a17" : art.template.ink === "#ffffff" ? art.template.background : art.template.ink,
    text: wrapText("heading", 13, CARD.width - ADDRESS_ZONE.x - SAFE, art.headline)[0] ?? "",
  });
  if (proof) {
    // The print service prints the address and postage here; the proof shows where, and what.
    shapes.push({ kind: "rect", ...ADDRESS_ZONE, fill: "#9aa0a6", dashed: true });
    (art.address ? addressLines(art.address) : ["The address goes here"]).forEach((line, i) =>
      shapes.push({
        kind: "text",
        font: "body",
        size: 9,
        x: ADDRESS_ZONE.x + 12,
        y: ADDRESS_ZONE.y + 0.9 * INCH + i * 12,
        fill: "#1f1a17",
        text: line,
      }),
    );
  }
  return { shapes };
}

/** Both sides of the card. `proof`: the address drawn where the print service will print it. */
export function postcardSides(art: PostcardArt, options: { proof: boolean }) {
  return { front: frontOf(art), back: backOf(art, options) };
}
