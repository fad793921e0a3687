// A collage scene (spec §3 Theme.scenes): two to four photos sharing one frame in a grid with
// gutters, on a blurred and darkened copy of the first photo so the frame never looks empty.

import sharp, { type OverlayOptions } from "sharp";
import type { FrameSize } from "./cards.server";

export interface Cell {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Where each photo goes: two side by side; three as one large picture beside two stacked ones;
 * four in a two-by-two grid. Pure, in whole pixels.
 */
export function collageCells(count: number, { width, height }: FrameSize): Cell[] {
  const margin = Math.round(height * 0.05);
  const gutter = Math.round(height * 0.025);
  const inner = { width: width - 2 * margin, height: height - 2 * margin };
  const halfWidth = Math.floor((inner.width - gutter) / 2);
  const halfHeight = Math.floor((inner.height - gutter) / 2);
  const right = margin + halfWidth + gutter;
  const lower = margin + halfHeight + gutter;
  if (count <= 2) {
    return [
      { left: margin, top: margin, width: halfWidth, height: inner.height },
      { left: right, top: margin, width: inner.width - halfWidth - gutter, height: inner.height },
    ].slice(0, Math.max(1, count));
  }
  if (count === 3) {
    const large = Math.round((inner.width - gutter) * 0.58);
    const side = { left: margin + large + gutter, width: inner.width - large - gutter };
    return [
      { left: margin, top: margin, width: large, height: inner.height },
      { ...side, top: margin, height: halfHeight },
      { ...side, top: lower, height: inner.height - halfHeight - gutter },
    ];
  }
  const lowerHeight = inner.height - halfHeight - gutter;
  const rightWidth = inner.width - halfWidth - gutter;
  return [
    { left: margin, top: margin, width: halfWidth, height: halfHeight },
    { left: right, top: margin, width: rightWidth, height: halfHeight },
    { left: margin, top: lower, width: halfWidth, height: lowerHeight },
    { left: right, top: lower, width: rightWidth, height: lowerHeight },
  ];
}

/** The collage of 2–4 photo renditions as a JPEG of the frame's size. */
export async function renderCollage(photos: readonly string[], frame: FrameSize, output: string): Promise<string> {
  if (photos.length < 2 || photos.length > 4) throw new RangeError(`A collage holds 2 to 4 photos, not ${photos.length}.`);
  const cells = collageCells(photos.length, frame);
  const radius = Math.max(2, Math.round(frame.height * 0.012));
  const shadowBlur = Math.max(1, frame.height * 0.01);
  const layers: OverlayOptions[] = [];
  for (const [index, cell] of cells.entries()) {
    const mask = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${cell.width}" height="${cell.height}"><rect width="${cell.width}" height="${cell.height}" rx="${radius}" ry="${radius}" fill="#fff"/></svg>`,
    );
    // Renditions of portrait photos sit on a blurred fill: "attention" keeps the sharp part in the cell.
    const picture = await open(photos[index]!)
      .resize(cell.width, cell.height, { fit: "cover", position: sharp.strategy.attention })
      .ensureAlpha()
      .composite([{ input: mask, blend: "dest-in" }])
      .png({ compressionLevel: 1 })
      .toBuffer();
    const margin = Math.ceil(shadowBlur * 3);
    const shadow = await sharp({
      create: { width: cell.width + 2 * margin, height: cell.height + 2 * margin, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([{ input: mask, left: margin, top: margin }])
      .linear([0, 0, 0, 0.45], [0, 0, 0, 0])
      .blur(shadowBlur)
      .png({ compressionLevel: 1 })
      .toBuffer();
    layers.push({ input: shadow, left: cell.left - margin, top: cell.top - margin + Math.round(shadowBlur) });
    layers.push({ input: picture, left: cell.left, top: cell.top });
  }
  const background = await open(photos[0]!)
    .resize(Math.max(2, Math.round(frame.width / 8)), Math.max(2, Math.round(frame.height / 8)), { fit: "cover" })
    .blur(Math.max(0.5, frame.height / 120))
    .modulate({ brightness: 0.55 })
    .resize(frame.width, frame.height)
    .removeAlpha()
    .toBuffer();
  await sharp(background).composite(layers).jpeg({ quality: 92, chromaSubsampling: "4:2:0" }).toFile(output);
  return output;
}

const open = (file: string) => sharp(file, { limitInputPixels: 100_000_000 }).autoOrient();
