import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import * as fontkit from "fontkit";
import PDFDocument from "pdfkit";

// The guestbook keepsake's layout: a cover, then every message with its writer, its date and its
// photo, set in the fonts the site ships (public/fonts/themes, SIL Open Font License in OFL.txt
// there). The page is 210 mm wide (A4's width) and 11 in tall (Letter's height), so it prints at
// full size on both papers without scaling or cropping.

const PAGE: [number, number] = [595.28, 792];
const MARGIN = 60;
const WIDTH = PAGE[0] - 2 * MARGIN;
const BOTTOM = PAGE[1] - MARGIN;
const PHOTO_HEIGHT = 260;
const INK = "#1f1a17";
const MUTED = "#6b625c";

const fontFile = (name: string) => path.resolve(process.cwd(), "public", "fonts", "themes", name);
export const FONTS = { heading: fontFile("Fraunces-SemiBold.ttf"), body: fontFile("Inter-SemiBold.ttf") };

export interface BookMessage {
  name: string;
  message: string;
  /** The day it was written, in words. */
  date: string;
  /** A JPEG or PNG to print with it, when the message came with a photo. */
  photo: Buffer | null;
}

export interface GuestbookBook {
  title: string;
  recipients: string;
  occasion: string;
  messages: BookMessage[];
}

type Drawable = (text: string) => string;

/**
 * Text as the font in `file` can draw it: a character it has no glyph for (an emoji, a script the
 * font does not cover) is replaced by "?", never an empty box nor a failure. Spacing and line breaks stay.
 */
export function drawableWith(file: string): Drawable {
  const font = fontkit.openSync(file) as fontkit.Font;
  return (text) =>
    Array.from(text.normalize("NFC"), (char) => {
      const code = char.codePointAt(0)!;
      if (char === "\n" || /\s/.test(char) || font.hasGlyphForCodePoint(code)) return char;
      return "?";
    }).join("");
}

let drawable: { heading: Drawable; body: Drawable } | null = null;
const drawableText = () => (drawable ??= { heading: drawableWith(FONTS.heading), body: drawableWith(FONTS.body) });

/** The book as a PDF stream, written as it is read. */
export function guestbookPdf(book: GuestbookBook): Readable {
  const doc = new PDFDocument({
    size: PAGE,
    margin: MARGIN,
    font: FONTS.body,
    info: { Title: `${book.title} — guestbook`, Subject: book.occasion },
  });
  doc.registerFont("heading", FONTS.heading);
  doc.registerFont("body", FONTS.body);
  const text = drawableText();
  const out = new PassThrough();
  doc.pipe(out);

  cover(doc, book, text);
  doc.addPage();
  if (!book.messages.length) {
    doc.font("body").fontSize(13).fillColor(MUTED).text("There are no messages yet.", { width: WIDTH, align: "center" });
  }
  for (const message of book.messages) drawMessage(doc, message, text);
  doc.end();
  return out;
}

function cover(doc: PDFKit.PDFDocument, book: GuestbookBook, text: { heading: Drawable; body: Drawable }) {
  doc.y = PAGE[1] * 0.3;
  doc.font("body").fontSize(12).fillColor(MUTED).text("GUESTBOOK", { width: WIDTH, align: "center", characterSpacing: 3 });
  doc.moveDown(1.5);
  doc.font("heading").fontSize(32).fillColor(INK).text(text.heading(book.title), { width: WIDTH, align: "center" });
  doc.moveDown(1);
  doc
    .font("body")
    .fontSize(15)
    .fillColor(INK)
    .text(text.body(`For ${book.recipients}`), { width: WIDTH, align: "center" });
  doc.moveDown(0.4);
  doc.fontSize(13).fillColor(MUTED).text(text.body(book.occasion), { width: WIDTH, align: "center" });
  const count = book.messages.length;
  doc.moveDown(3);
  doc.fontSize(11).text(count ? `${count} ${count === 1 ? "message" : "messages"}` : "No messages yet", { width: WIDTH, align: "center" });
}

/** One message, kept on one page when it fits on one (a long one runs on). */
function drawMessage(doc: PDFKit.PDFDocument, message: BookMessage, text: { heading: Drawable; body: Drawable }) {
  const words = text.body(message.message);
  const signature = text.body(`— ${message.name || "Someone"}, ${message.date}`);
  doc.font("body").fontSize(12.5);
  const wordsHeight = doc.heightOfString(words, { width: WIDTH, lineGap: 3 });
  doc.fontSize(10.5);
  const needed = (message.photo ? PHOTO_HEIGHT + 14 : 0) + wordsHeight + doc.heightOfString(signature, { width: WIDTH }) + 36;
  const top = MARGIN + 1;
  if (doc.y > top && doc.y + needed > BOTTOM && needed <= BOTTOM - MARGIN) doc.addPage();

  if (message.photo) {
    try {
      doc.image(message.photo, MARGIN, doc.y, { fit: [WIDTH, PHOTO_HEIGHT], align: "center" });
      doc.y += PHOTO_HEIGHT + 14;
    } catch {
      // A photo the PDF library cannot read leaves the message without it.
    }
  }
  doc.x = MARGIN;
  doc.font("body").fontSize(12.5).fillColor(INK).text(words, { width: WIDTH, lineGap: 3 });
  doc.moveDown(0.4);
  doc.fontSize(10.5).fillColor(MUTED).text(signature, { width: WIDTH });
  doc.moveDown(0.8);
  const ruleY = doc.y;
  if (ruleY < BOTTOM - 20) {
    doc
      .moveTo(MARGIN + WIDTH / 3, ruleY)
      .lineTo(MARGIN + (2 * WIDTH) / 3, ruleY)
      .lineWidth(0.5)
      .strokeColor("#d8d0c8")
      .stroke();
  }
  doc.moveDown(1.2);
}
