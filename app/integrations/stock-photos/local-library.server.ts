import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { StockPhoto, StockPhotoProvider } from "./stock-port";

// A small library of celebration backdrops drawn by the app itself (SVG rendered with sharp), so
// the stock photo picker works offline and on a fresh clone. Free to ship: we made them.

interface Design {
  id: string;
  title: string;
  tags: string[];
  colors: [string, string];
  motif: "balloons" | "confetti" | "stars" | "hearts" | "bokeh" | "waves";
}

const DESIGNS: Design[] = [
  {
    id: "balloons-sky",
    title: "Balloons in a blue sky",
    tags: ["birthday", "balloons", "party", "celebration", "blue"],
    colors: ["#5aa9f0", "#d8ecff"],
    motif: "balloons",
  },
  {
    id: "balloons-sunset",
    title: "Balloons at sunset",
    tags: ["birthday", "balloons", "sunset", "party"],
    colors: ["#f5865b", "#ffd27a"],
    motif: "balloons",
  },
  {
    id: "confetti-gold",
    title: "Gold confetti",
    tags: ["confetti", "party", "celebration", "congratulations", "gold", "graduation"],
    colors: ["#2b2140", "#5b3f8a"],
    motif: "confetti",
  },
  {
    id: "confetti-pastel",
    title: "Pastel confetti",
    tags: ["confetti", "birthday", "baby", "babyshower", "party"],
    colors: ["#fde2e4", "#e2ece9"],
    motif: "confetti",
  },
  {
    id: "stars-night",
    title: "A starry night",
    tags: ["stars", "night", "memorial", "farewell", "sky"],
    colors: ["#0b1b3f", "#27407a"],
    motif: "stars",
  },
  {
    id: "stars-gold",
    title: "Golden stars",
    tags: ["stars", "gold", "recognition", "thankyou", "award", "retirement"],
    colors: ["#3a2a05", "#8a6a1c"],
    motif: "stars",
  },
  {
    id: "hearts-red",
    title: "Red hearts",
    tags: ["hearts", "love", "valentines", "wedding", "anniversary", "red"],
    colors: ["#b3123b", "#f06080"],
    motif: "hearts",
  },
  {
    id: "hearts-blush",
    title: "Blush hearts",
    tags: ["hearts", "love", "wedding", "mothers", "pink"],
    colors: ["#f7c6d0", "#fff0f3"],
    motif: "hearts",
  },
  {
    id: "bokeh-warm",
    title: "Warm lights",
    tags: ["lights", "bokeh", "holiday", "christmas", "warm", "evening"],
    colors: ["#3b1d0e", "#a0522d"],
    motif: "bokeh",
  },
  {
    id: "bokeh-cool",
    title: "Cool lights",
    tags: ["lights", "bokeh", "winter", "holiday", "blue"],
    colors: ["#0e2a3b", "#2d7fa0"],
    motif: "bokeh",
  },
  {
    id: "waves-sea",
    title: "Calm sea",
    tags: ["sea", "waves", "calm", "getwell", "retirement", "farewell", "summer"],
    colors: ["#0f5e7a", "#7fd1e0"],
    motif: "waves",
  },
  {
    id: "waves-meadow",
    title: "Green meadow",
    tags: ["meadow", "green", "spring", "getwell", "fathers", "nature"],
    colors: ["#2f6b2f", "#bfe3a5"],
    motif: "waves",
  },
];

export const STOCK_WIDTH = 1920;
export const STOCK_HEIGHT = 1080;

/** A deterministic pseudo-random sequence per design, so a picture never changes between renders. */
function sequence(seed: string) {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return ((h ^= h >>> 16) >>> 0) / 4294967296;
  };
}

function motifShapes(design: Design) {
  const rand = sequence(design.id);
  const palette = ["#ff5d73", "#ffd23f", "#3bceac", "#5e60ce", "#ffffff", "#ff9f1c"];
  const shapes: string[] = [];
  const pick = () => palette[Math.floor(rand() * palette.length)]!;
  for (let i = 0; i < 60; i++) {
    const x = rand() * STOCK_WIDTH;
    const y = rand() * STOCK_HEIGHT;
    const s = 10 + rand() * 60;
    if (design.motif === "balloons" && i < 14) {
      shapes.push(
        `<path d="M${x} ${y + s * 1.4} q${s * 0.1} ${s} ${-s * 0.2} ${s * 2.4}" stroke="#ffffffaa" stroke-width="2" fill="none"/>`,
      );
      shapes.push(`<ellipse cx="${x}" cy="${y}" rx="${s}" ry="${s * 1.25}" fill="${pick()}" opacity="0.9"/>`);
    } else if (design.motif === "confetti") {
      shapes.push(
        `<rect x="${x}" y="${y}" width="${s / 2}" height="${s / 5}" fill="${pick()}" transform="rotate(${rand() * 180} ${x} ${y})"/>`,
      );
    } else if (design.motif === "stars") {
      const r = s / 6;
      shapes.push(`<circle cx="${x}" cy="${y}" r="${r}" fill="#fff8d6" opacity="${0.4 + rand() * 0.6}"/>`);
    } else if (design.motif === "hearts" && i < 24) {
      const k = s / 30;
      shapes.push(
        `<path transform="translate(${x} ${y}) scale(${k})" d="M0 8 C0 -4 -18 -4 -18 8 C-18 18 0 26 0 34 C0 26 18 18 18 8 C18 -4 0 -4 0 8Z" fill="#ffffff" opacity="0.55"/>`,
      );
    } else if (design.motif === "bokeh" && i < 30) {
      shapes.push(`<circle cx="${x}" cy="${y}" r="${s * 1.5}" fill="${pick()}" opacity="0.18"/>`);
    } else if (design.motif === "waves" && i < 8) {
      const top = (STOCK_HEIGHT / 8) * i + 300;
      shapes.push(
        `<path d="M0 ${top} Q ${STOCK_WIDTH / 4} ${top - 60} ${STOCK_WIDTH / 2} ${top} T ${STOCK_WIDTH} ${top} V ${STOCK_HEIGHT} H 0 Z" fill="#ffffff" opacity="0.08"/>`,
      );
    }
  }
  return shapes.join("");
}

export function designSvg(design: Design) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${STOCK_WIDTH}" height="${STOCK_HEIGHT}" viewBox="0 0 ${STOCK_WIDTH} ${STOCK_HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${design.colors[0]}"/><stop offset="1" stop-color="${design.colors[1]}"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${motifShapes(design)}</svg>`;
}

export const findDesign = (id: string) => DESIGNS.find((d) => d.id === id) ?? null;

/** Renders (once, then from disk) a design as a JPEG at `width` pixels wide. */
export async function renderDesign(cacheDir: string, id: string, width: number) {
  const design = findDesign(id);
  if (!design) return null;
  const file = path.join(cacheDir, `${id}-${width}.jpg`);
  try {
    await fs.access(file);
  } catch {
    await fs.mkdir(cacheDir, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    await sharp(Buffer.from(designSvg(design)))
      .resize({ width })
      .jpeg({ quality: 88, mozjpeg: true })
      .toFile(temp);
    await fs.rename(temp, file);
  }
  return file;
}

const toPhoto = (design: Design): StockPhoto => ({
  id: design.id,
  description: design.title,
  width: STOCK_WIDTH,
  height: STOCK_HEIGHT,
  thumbUrl: `/stock/${design.id}/400.jpg`,
  regularUrl: `/stock/${design.id}/1920.jpg`,
  author: { name: "Chorus", url: null },
  downloadLocation: `/stock/${design.id}/download`,
});

/** Searches titles and tags (an empty query lists everything); pictures are rendered into `cacheDir`. */
export function localStockLibrary(cacheDir: string): StockPhotoProvider {
  return {
    name: "local",
    async search(query, page, perPage) {
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      const matches = DESIGNS.filter((d) => words.every((w) => d.title.toLowerCase().includes(w) || d.tags.some((t) => t.startsWith(w))));
      const start = (page - 1) * perPage;
      return {
        page,
        total: matches.length,
        totalPages: Math.ceil(matches.length / perPage),
        results: matches.slice(start, start + perPage).map(toPhoto),
      };
    },
    async photo(id) {
      const design = findDesign(id);
      return design ? toPhoto(design) : null;
    },
    async download(photo, file) {
      const rendered = await renderDesign(cacheDir, photo.id, STOCK_WIDTH);
      if (!rendered) throw new Error(`No stock design "${photo.id}".`);
      await fs.copyFile(rendered, file);
      return { contentType: "image/jpeg" };
    },
    async trackDownload() {
      // Our own pictures: nobody to tell.
    },
  };
}
