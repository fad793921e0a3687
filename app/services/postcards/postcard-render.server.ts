import { PassThrough, type Readable } from "node:stream";
import PDFDocument from "pdfkit";
import { CARD, drawable, fonts, type Shape, type Side } from "./postcard-art.server";

// Draws the card's sides (postcard-art.server.ts lays them out) in the two forms it is seen in: the
// preview as SVG, and the print file or the proof as PDF. Text is the glyph outlines of the site's
// fonts in both, so the preview shows the very lines that are printed (docs/decisions/030-postcards.md).

/** A line of text as one path of glyph outlines, in points, its baseline at y. */
function textPath(shape: Extract<Shape, { kind: "text" }>) {
  const font = fonts()[shape.font];
  const scale = shape.size / font.unitsPerEm;
  const run = font.layout(drawable(shape.font, shape.text));
  let pen = shape.anchor === "middle" ? shape.x - (run.advanceWidth * scale) / 2 : shape.x;
  const parts: string[] = [];
  const point = (gx: number, gy: number, originX: number) => `${(originX + gx * scale).toFixed(2)} ${(shape.y - gy * scale).toFixed(2)}`;
  run.glyphs.forEach((glyph, i) => {
    const position = run.positions[i]!;
    const originX = pen + position.xOffset * scale;
    for (const { command, args } of glyph.path.commands) {
      const pairs: string[] = [];
      for (let a = 0; a < args.length; a += 2) pairs.push(point(args[a]!, args[a + 1]! + position.yOffset, originX));
      const letter = { moveTo: "M", lineTo: "L", quadraticCurveTo: "Q", bezierCurveTo: "C", closePath: "Z" }[command];
      parts.push(`${letter}${pairs.join(" ")}`);
    }
    pen += position.xAdvance * scale;
  });
  return parts.join("");
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** One side as an SVG image, in points (the preview). */
export function sideSvg(side: Side) {
  const body = side.shapes
    .map((shape) => {
      switch (shape.kind) {
        case "rect":
          return shape.dashed
            ? `<rect x="${shape.x}" y="${shape.y}" width="${shape.width}" height="${shape.height}" fill="none" stroke="${shape.fill}" stroke-dasharray="4 3"/>`
            : `<rect x="${shape.x}" y="${shape.y}" width="${shape.width}" height="${shape.height}" fill="${shape.fill}"/>`;
        case "circle":
          return `<circle cx="${shape.cx}" cy="${shape.cy}" r="${shape.r}" fill="${shape.fill}"/>`;
        case "text":
          return `<path fill="${shape.fill}" d="${textPath(shape)}"/>`;
        case "image":
          return `<image x="${shape.x}" y="${shape.y}" width="${shape.width}" height="${shape.height}" preserveAspectRatio="xMidYMid slice" href="${escapeAttribute(`data:image/jpeg;base64,${shape.jpeg.toString("base64")}`)}"/>`;
      }
    })
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CARD.width} ${CARD.height}" width="${CARD.width}" height="${CARD.height}">${body}</svg>`;
}

function drawSide(doc: PDFKit.PDFDocument, side: Side) {
  for (const shape of side.shapes) {
    switch (shape.kind) {
      case "rect": {
        const colour = shape.fill.slice(0, 7);
        const opacity = shape.fill.length === 9 ? parseInt(shape.fill.slice(7), 16) / 255 : 1;
        if (shape.dashed)
          doc.save().rect(shape.x, shape.y, shape.width, shape.height).dash(4, { space: 3 }).stroke(colour).undash().restore();
        else doc.save().rect(shape.x, shape.y, shape.width, shape.height).fillOpacity(opacity).fill(colour).restore();
        break;
      }
      case "circle":
        doc.save().circle(shape.cx, shape.cy, shape.r).fill(shape.fill).restore();
        break;
      case "text":
        doc.save().path(textPath(shape)).fill(shape.fill).restore();
        break;
      case "image":
        doc
          .save()
          .rect(0, 0, CARD.width, CARD.height)
          .clip()
          .image(shape.jpeg, shape.x, shape.y, { cover: [shape.width, shape.height], align: "center", valign: "center" })
          .restore();
        break;
    }
  }
}

/** Sides as a PDF of one page each, 6.25×4.25 in: what the print service prints, or the proof. */
export function sidesPdf(sides: Side[], title: string): Readable {
  const doc = new PDFDocument({ size: [CARD.width, CARD.height], margin: 0, autoFirstPage: false, info: { Title: title } });
  const out = new PassThrough();
  doc.pipe(out);
  for (const side of sides) {
    doc.addPage({ size: [CARD.width, CARD.height], margin: 0 });
    drawSide(doc, side);
  }
  doc.end();
  return out;
}
