// `npx tsx scripts/make-theme-art.ts`: draws the built-in themes' intro and outro backgrounds
// (1920x1080) and picker previews (480x270) into public/themes/{slug}/. Deterministic: the same
// code draws the same pictures, so the files are committed and redrawn only when a design changes.
// No text in them: the renderer writes the names on top, in the middle, which is kept calm and in
// a tone the theme's font colour reads on.
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { BUILT_IN_THEMES, type BuiltInTheme } from "~/domain/built-in-themes";

const W = 1920;
const H = 1080;
const MAX_BYTES = 250 * 1024;
const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), "../public/themes");

// ——— Drawing helpers ———

/** A seeded pseudo-random sequence: the same seed draws the same picture. */
function sequence(seed: string) {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return ((h ^= h >>> 16) >>> 0) / 4294967296;
  };
}
type Rand = ReturnType<typeof sequence>;

const between = (rand: Rand, min: number, max: number) => min + rand() * (max - min);
const pick = <T>(rand: Rand, list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
const n = (v: number) => Math.round(v * 10) / 10;

/** A point outside the calm middle of the frame, where the title goes (0 = centre, 1 = edge). */
function edgePoint(rand: Rand, calm = 0.62) {
  for (;;) {
    const x = rand() * W;
    const y = rand() * H;
    const d = Math.hypot((x - W / 2) / (W / 2), (y - H / 2) / (H / 2));
    if (d > calm || rand() < 0.04 * d) return { x, y };
  }
}

const stops = (list: [number, string, number?][]) =>
  list.map(([o, c, a = 1]) => `<stop offset="${o}" stop-color="${c}" stop-opacity="${a}"/>`).join("");
const linear = (id: string, list: [number, string, number?][], [x1, y1, x2, y2] = [0, 0, 0, 1]) =>
  `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stops(list)}</linearGradient>`;
const radial = (id: string, list: [number, string, number?][], cx = 0.5, cy = 0.5, r = 0.75) =>
  `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${stops(list)}</radialGradient>`;
const blur = (id: string, amount: number) =>
  `<filter id="${id}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${amount}"/></filter>`;
const fill = (paint: string) => `<rect width="${W}" height="${H}" fill="${paint}"/>`;
const svg = (defs: string, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs}</defs>${body}</svg>`;
const mirrored = (body: string) => `<g transform="translate(${W} 0) scale(-1 1)">${body}</g>`;

/** Soft out-of-focus lights. */
function bokeh(rand: Rand, count: number, colours: readonly string[], [rMin, rMax]: [number, number], calm = 0.6) {
  return Array.from({ length: count }, () => {
    const { x, y } = edgePoint(rand, calm);
    const r = between(rand, rMin, rMax);
    return `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${pick(rand, colours)}" fill-opacity="${n(between(rand, 0.12, 0.38) * 100) / 100}"/>`;
  }).join("");
}

/** A pointed leaf with its midrib, pointing right from the origin. */
const leaf = (length: number, colour: string, vein: string) =>
  `<path d="M0 0 C${n(length * 0.3)} ${n(-length * 0.32)} ${n(length * 0.75)} ${n(-length * 0.28)} ${length} 0 C${n(length * 0.75)} ${n(length * 0.28)} ${n(length * 0.3)} ${n(length * 0.32)} 0 0Z" fill="${colour}"/>` +
  `<path d="M${n(length * 0.05)} 0 L${n(length * 0.9)} 0" stroke="${vein}" stroke-width="${n(Math.max(1.5, length / 40))}" stroke-opacity="0.5"/>`;

const place = (x: number, y: number, angle: number, body: string, scale = 1) =>
  `<g transform="translate(${n(x)} ${n(y)}) rotate(${n(angle)}) scale(${n(scale * 100) / 100})">${body}</g>`;

/** A five-petal flower. */
function flower(r: number, petal: string, heart: string) {
  const petals = Array.from({ length: 5 }, (_, i) =>
    place(0, 0, i * 72, `<ellipse cx="${n(r * 0.6)}" cy="0" rx="${n(r * 0.6)}" ry="${n(r * 0.36)}" fill="${petal}"/>`),
  ).join("");
  return `${petals}<circle r="${n(r * 0.26)}" fill="${heart}"/>`;
}

/** A four-point sparkle. */
const sparkle = (r: number, colour: string) =>
  `<path d="M0 ${-r} Q${n(r * 0.12)} ${n(-r * 0.12)} ${r} 0 Q${n(r * 0.12)} ${n(r * 0.12)} 0 ${r} Q${n(-r * 0.12)} ${n(r * 0.12)} ${-r} 0 Q${n(-r * 0.12)} ${n(-r * 0.12)} 0 ${-r}Z" fill="${colour}"/>`;

// ——— The designs, one per built-in theme ———

type Kind = "intro" | "outro";

function goldenHour(kind: Kind) {
  const rand = sequence(`golden-hour-${kind}`);
  const sun = kind === "intro" ? { x: 1490, y: 800 } : { x: 430, y: 880 };
  const defs =
    linear(
      "sky",
      kind === "intro"
        ? [
            [0, "#ffe2a8"],
            [0.42, "#ffbf86"],
            [0.76, "#f3946f"],
            [1, "#c4607a"],
          ]
        : [
            [0, "#ffd49a"],
            [0.4, "#f9aa7c"],
            [0.74, "#e07a6c"],
            [1, "#9f4b72"],
          ],
    ) +
    radial(
      "sun",
      [
        [0, "#fffbe8"],
        [0.18, "#fff0bd", 0.95],
        [0.45, "#ffd38a", 0.45],
        [1, "#ffb070", 0],
      ],
      sun.x / W,
      sun.y / H,
      0.55,
    ) +
    radial(
      "calm",
      [
        [0, "#fff6e6", 0.7],
        [0.55, "#ffe9cc", 0.35],
        [1, "#ffe0b8", 0],
      ],
      0.5,
      0.46,
      0.5,
    ) +
    blur("soft", 6) +
    blur("haze", 12);
  const rays = Array.from({ length: 16 }, (_, i) => {
    const angle = (i / 16) * Math.PI * 2 + rand() * 0.2;
    const spread = 0.035 + rand() * 0.03;
    const far = 2400;
    const a = { x: sun.x + Math.cos(angle - spread) * far, y: sun.y + Math.sin(angle - spread) * far };
    const b = { x: sun.x + Math.cos(angle + spread) * far, y: sun.y + Math.sin(angle + spread) * far };
    return `<path d="M${sun.x} ${sun.y} L${n(a.x)} ${n(a.y)} L${n(b.x)} ${n(b.y)}Z" fill="#fff7dc" fill-opacity="${n(between(rand, 0.08, 0.16) * 100) / 100}"/>`;
  }).join("");
  const hills =
    kind === "intro"
      ? `<path d="M0 980 C320 900 620 960 900 930 S1500 860 1920 940 V1080 H0Z" fill="#a84f6a" fill-opacity="0.35"/>`
      : `<path d="M0 950 C400 880 700 990 1100 950 S1650 900 1920 980 V1080 H0Z" fill="#7e3b63" fill-opacity="0.4"/>`;
  return svg(
    defs,
    fill("url(#sky)") +
      `<g filter="url(#haze)">${rays}</g>` +
      fill("url(#sun)") +
      `<g filter="url(#soft)">${bokeh(rand, 34, ["#fff4c8", "#ffe0a0", "#ffffff", "#ffc98f"], [18, 80])}</g>` +
      hills +
      fill("url(#calm)"),
  );
}

function confetti(kind: Kind) {
  const rand = sequence(`confetti-${kind}`);
  const palette = ["#ffd23f", "#ff6b9a", "#3ee0c0", "#8fb3ff", "#ff9f43", "#ffffff", "#c6a2ff"];
  const defs =
    radial(
      "bg",
      kind === "intro"
        ? [
            [0, "#8c2a70"],
            [0.6, "#5e1a55"],
            [1, "#34103a"],
          ]
        : [
            [0, "#7a2468"],
            [0.6, "#4f1650"],
            [1, "#2a0d33"],
          ],
      0.5,
      0.5,
      0.8,
    ) +
    radial(
      "glow",
      [
        [0, "#ff9fd0", 0.22],
        [1, "#ff9fd0", 0],
      ],
      0.5,
      0.45,
      0.45,
    ) +
    blur("depth", 3);
  const piece = (far: boolean) => {
    const { x, y } = edgePoint(rand, kind === "intro" ? 0.58 : 0.66);
    const colour = pick(rand, palette);
    const angle = rand() * 180;
    const s = far ? between(rand, 0.5, 0.8) : between(rand, 0.9, 1.5);
    const shape = rand();
    const body =
      shape < 0.45
        ? `<rect x="-14" y="-5" width="28" height="10" rx="2" fill="${colour}"/>`
        : shape < 0.7
          ? `<circle r="7" fill="${colour}"/>`
          : shape < 0.85
            ? `<path d="M-10 8 L0 -9 L10 8Z" fill="${colour}"/>`
            : `<path d="M-18 0 q4.5 -9 9 0 t9 0 t9 0 t9 0" stroke="${colour}" stroke-width="4" fill="none" stroke-linecap="round"/>`;
    return place(x, y, angle, body, s);
  };
  const far = Array.from({ length: 90 }, () => piece(true)).join("");
  const near = Array.from({ length: 150 }, () => piece(false)).join("");
  const streamer = (x: number, y: number, angle: number, colour: string) =>
    place(
      x,
      y,
      angle,
      `<path d="M0 0 C60 -40 120 40 180 0 S300 -40 360 0 S480 40 540 0" stroke="${colour}" stroke-width="9" fill="none" stroke-linecap="round" stroke-opacity="0.9"/>`,
    );
  const streamers =
    kind === "intro"
      ? streamer(-40, 140, 18, "#ffd23f") +
        streamer(1480, -20, 40, "#3ee0c0") +
        streamer(1450, 1040, -24, "#ff6b9a") +
        streamer(-60, 960, -10, "#8fb3ff")
      : streamer(-20, 60, 12, "#ff6b9a") + streamer(1500, 80, 30, "#ffd23f") + streamer(20, 1020, -14, "#3ee0c0");
  return svg(defs, fill("url(#bg)") + fill("url(#glow)") + `<g filter="url(#depth)" opacity="0.55">${far}</g>` + streamers + near);
}

function classicIvory(kind: Kind) {
  const gold = "#b48a3c";
  const defs =
    radial(
      "paper",
      [
        [0, "#fffdf8"],
        [0.7, "#f8f0df"],
        [1, "#eadbbd"],
      ],
      0.5,
      0.5,
      0.85,
    ) +
    `<filter id="grain" x="0" y="0" width="100%" height="100%"><feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="2" seed="7"/><feColorMatrix values="0 0 0 0 0.45  0 0 0 0 0.36  0 0 0 0 0.2  0 0 0 0.05 0"/></filter>`;
  // A corner flourish, drawn for the top-left corner and mirrored into the others.
  const corner =
    `<path d="M90 250 V120 Q90 90 120 90 H250" fill="none" stroke="${gold}" stroke-width="3"/>` +
    `<path d="M118 210 Q118 118 210 118" fill="none" stroke="${gold}" stroke-width="1.6"/>` +
    `<path d="M140 140 m-14 0 l14 -14 l14 14 l-14 14Z" fill="${gold}"/>` +
    `<circle cx="262" cy="90" r="5" fill="${gold}"/><circle cx="90" cy="262" r="5" fill="${gold}"/>`;
  const corners = [
    corner,
    `<g transform="translate(${W} 0) scale(-1 1)">${corner}</g>`,
    `<g transform="translate(0 ${H}) scale(1 -1)">${corner}</g>`,
    `<g transform="translate(${W} ${H}) scale(-1 -1)">${corner}</g>`,
  ].join("");
  const frame =
    `<rect x="60" y="60" width="${W - 120}" height="${H - 120}" fill="none" stroke="${gold}" stroke-width="2.5"/>` +
    `<rect x="76" y="76" width="${W - 152}" height="${H - 152}" fill="none" stroke="${gold}" stroke-width="1" stroke-opacity="0.7"/>`;
  const rule = (y: number) =>
    `<path d="M700 ${y} H900 M1020 ${y} H1220" stroke="${gold}" stroke-width="1.6"/>` +
    `<path d="M960 ${y - 16} L976 ${y} L960 ${y + 16} L944 ${y}Z" fill="${gold}"/>` +
    `<circle cx="918" cy="${y}" r="4" fill="${gold}"/><circle cx="1002" cy="${y}" r="4" fill="${gold}"/>`;
  const sprig = (flip: boolean) => {
    const leaves = Array.from({ length: 7 }, (_, i) => {
      const t = i / 6;
      const x = 40 + t * 200;
      const y = -Math.sin(t * Math.PI * 0.8) * 60;
      return place(x, y + (i % 2 ? 8 : -8), (i % 2 ? 35 : -35) - t * 20, leaf(46 - i * 3, gold, "#fffdf8"), 0.9);
    }).join("");
    const stem = `<path d="M30 0 Q140 -40 260 -50" stroke="${gold}" stroke-width="2.5" fill="none"/>`;
    return `<g transform="translate(960 900) ${flip ? "scale(-1 1)" : ""}">${stem}${leaves}</g>`;
  };
  const ornament = kind === "intro" ? rule(230) + rule(850) : sprig(false) + sprig(true) + rule(210);
  return svg(defs, fill("url(#paper)") + `<rect width="${W}" height="${H}" filter="url(#grain)"/>` + frame + corners + ornament);
}

function midnight(kind: Kind) {
  const rand = sequence(`midnight-${kind}`);
  const moon = kind === "intro" ? { x: 1590, y: 230 } : { x: 330, y: 250 };
  const defs =
    radial(
      "sky",
      [
        [0, "#2a3d7a"],
        [0.55, "#101c45"],
        [1, "#060b1f"],
      ],
      0.5,
      1.1,
      1.1,
    ) +
    radial(
      "moonGlow",
      [
        [0, "#fff3d1", 0.5],
        [1, "#fff3d1", 0],
      ],
      moon.x / W,
      moon.y / H,
      0.16,
    ) +
    blur("milky", 70) +
    blur("glow", 4) +
    `<mask id="crescent"><rect width="${W}" height="${H}" fill="#fff"/><circle cx="${moon.x + 40}" cy="${moon.y - 26}" r="86" fill="#000"/></mask>`;
  const stars = Array.from({ length: 280 }, () => {
    const x = rand() * W;
    const y = rand() * H * 0.9;
    return `<circle cx="${n(x)}" cy="${n(y)}" r="${n(between(rand, 0.8, 2.6))}" fill="#fff8e6" fill-opacity="${n(between(rand, 0.35, 1) * 100) / 100}"/>`;
  }).join("");
  const sparkles = Array.from({ length: 12 }, () => {
    const { x, y } = edgePoint(rand, 0.6);
    const r = between(rand, 10, 22);
    return place(x, Math.min(y, 850), 0, `<g filter="url(#glow)">${sparkle(r * 1.4, "#ffe9b0")}</g>${sparkle(r, "#fffaf0")}`);
  }).join("");
  const band = `<ellipse cx="960" cy="380" rx="1100" ry="140" transform="rotate(${kind === "intro" ? -14 : 12} 960 380)" fill="#7b8fd6" fill-opacity="0.16" filter="url(#milky)"/>`;
  const shootingStar =
    kind === "outro"
      ? `<path d="M1320 150 L1700 60" stroke="#fff8e6" stroke-width="3" stroke-linecap="round" stroke-opacity="0.7"/><circle cx="1320" cy="150" r="4" fill="#fffaf0"/>`
      : "";
  const hills =
    `<path d="M0 930 C300 860 520 900 760 880 S1300 820 1920 900 V1080 H0Z" fill="#0b1431"/>` +
    `<path d="M0 1000 C400 950 800 1010 1200 970 S1700 960 1920 990 V1080 H0Z" fill="#050918"/>`;
  const moonBody = `<circle cx="${moon.x}" cy="${moon.y}" r="80" fill="#fff1cf" mask="url(#crescent)"/>`;
  return svg(defs, fill("url(#sky)") + band + stars + sparkles + shootingStar + fill("url(#moonGlow)") + moonBody + hills);
}

function handwrittenNotes(kind: Kind) {
  const rand = sequence(`handwritten-notes-${kind}`);
  const ink = "#1d2b4f";
  const defs = radial(
    "paper",
    [
      [0, "#fffef8"],
      [0.75, "#fffaee"],
      [1, "#f2ead6"],
    ],
    0.5,
    0.5,
    0.85,
  );
  const lines = Array.from(
    { length: 17 },
    (_, i) => `<path d="M0 ${150 + i * 56} H${W}" stroke="#9dbbe3" stroke-width="2" stroke-opacity="0.75"/>`,
  ).join("");
  const margin = `<path d="M250 0 V${H}" stroke="#e39a9a" stroke-width="2.5"/><path d="M258 0 V${H}" stroke="#e39a9a" stroke-width="1" stroke-opacity="0.6"/>`;
  const holes = [200, 540, 880]
    .map((y) => `<circle cx="118" cy="${y}" r="26" fill="#e8e1cf"/><circle cx="120" cy="${y + 3}" r="22" fill="#d9d0b9"/>`)
    .join("");
  const tape = (x: number, y: number, angle: number) =>
    place(
      x,
      y,
      angle,
      `<path d="M-120 -30 L120 -30 L114 -18 L122 -6 L114 6 L122 18 L116 30 L-120 30 L-114 18 L-122 6 L-114 -6 L-122 -18Z" fill="#f3e39b" fill-opacity="0.8"/>`,
    );
  const pen = (d: string) =>
    `<path d="${d}" fill="none" stroke="${ink}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.6"/>`;
  const doodles = {
    star: pen("M0 -40 L12 -12 L42 -10 L18 8 L26 38 L0 22 L-26 38 L-18 8 L-42 -10 L-12 -12Z"),
    heart: pen("M0 30 C-50 -6 -40 -46 -10 -40 C0 -38 0 -28 0 -22 C0 -28 2 -38 12 -40 C42 -46 50 -6 0 30Z"),
    spiral: pen("M0 0 C10 -10 22 2 12 14 C0 28 -24 16 -22 -4 C-20 -28 16 -34 30 -12 C44 12 24 44 -6 42"),
    arrow: pen("M-60 20 C-20 -20 20 -20 56 6 M40 -14 L58 8 L32 16"),
    flower: pen("M0 -6 C-16 -40 16 -40 0 -6 C34 -22 34 12 4 4 C22 34 -14 38 -4 6 C-36 24 -40 -12 -6 -2Z M0 10 C6 40 -6 60 4 80"),
    squiggle: pen("M-80 0 C-60 -20 -40 20 -20 0 S20 -20 40 0 S80 20 100 0"),
  };
  const spots =
    kind === "intro"
      ? [
          [420, 180, "star", -8],
          [1700, 200, "heart", 10],
          [1640, 880, "spiral", 0],
          [470, 900, "arrow", -6],
          [1400, 120, "squiggle", 3],
        ]
      : [
          [430, 170, "heart", -12],
          [1710, 190, "flower", 6],
          [1660, 900, "star", 14],
          [480, 910, "squiggle", -4],
          [760, 120, "spiral", 0],
        ];
  const drawn = spots
    .map(([x, y, d, a]) => place(x as number, y as number, (a as number) + between(rand, -4, 4), doodles[d as keyof typeof doodles], 1.4))
    .join("");
  const tapes = kind === "intro" ? tape(1790, 70, 32) + tape(330, 1020, -24) : tape(330, 60, -30) + tape(1800, 1010, 28);
  return svg(defs, fill("url(#paper)") + lines + margin + holes + drawn + tapes);
}

function modernMono(kind: Kind) {
  const defs =
    linear(
      "bg",
      [
        [0, "#0c0c0c"],
        [1, "#202020"],
      ],
      [0, 0, 1, 1],
    ) +
    radial(
      "calm",
      [
        [0, "#2a2a2a", 0.7],
        [1, "#2a2a2a", 0],
      ],
      0.5,
      0.5,
      0.45,
    ) +
    `<pattern id="dots" width="44" height="44" patternUnits="userSpaceOnUse"><circle cx="6" cy="6" r="3" fill="#ffffff" fill-opacity="0.22"/></pattern>` +
    `<pattern id="hatch" width="22" height="22" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="22" fill="#ffffff" fill-opacity="0.16"/></pattern>`;
  const shapes =
    `<rect x="110" y="110" width="352" height="264" fill="url(#dots)"/>` +
    `<circle cx="1660" cy="880" r="390" fill="none" stroke="#ffffff" stroke-opacity="0.16" stroke-width="2"/>` +
    `<circle cx="1660" cy="880" r="300" fill="none" stroke="#ffffff" stroke-opacity="0.08" stroke-width="2"/>` +
    `<circle cx="1560" cy="200" r="92" fill="#ffffff" fill-opacity="0.9"/>` +
    `<rect x="1700" y="150" width="110" height="110" fill="url(#hatch)"/>` +
    `<circle cx="250" cy="900" r="150" fill="#ffffff" fill-opacity="0.07"/>` +
    `<path d="M120 1000 H560 M120 1016 H380" stroke="#ffffff" stroke-opacity="0.5" stroke-width="3"/>` +
    `<path d="M1290 110 L1390 110 L1290 210Z" fill="#9a9a9a" fill-opacity="0.5"/>` +
    `<rect x="560" y="860" width="18" height="140" fill="#ffffff" fill-opacity="0.85"/>`;
  return svg(defs, fill("url(#bg)") + fill("url(#calm)") + (kind === "intro" ? shapes : mirrored(shapes)));
}

function gardenCollage(kind: Kind) {
  const rand = sequence(`garden-collage-${kind}`);
  const greens = ["#6fae6a", "#8cc084", "#4e8f57", "#a7d49b", "#3f7f4c"];
  const blooms: [string, string][] = [
    ["#f7c6d4", "#f39ab4"],
    ["#ffe08a", "#f2b84b"],
    ["#ffffff", "#ffd36b"],
    ["#d9c6f7", "#a98be8"],
  ];
  const defs =
    radial(
      "bg",
      [
        [0, "#2f6539"],
        [0.6, "#24502d"],
        [1, "#163520"],
      ],
      0.5,
      0.5,
      0.8,
    ) +
    blur("light", 40) +
    `<filter id="shadow" x="-20%" y="-20%" width="140%" height="140%"><feDropShadow dx="0" dy="6" stdDeviation="8" flood-color="#0a1f0f" flood-opacity="0.35"/></filter>`;
  const corners =
    kind === "intro"
      ? [
          [0, 0],
          [W, H],
          [W, 0],
        ]
      : [
          [0, H],
          [W, 0],
          [0, 0],
        ];
  const cluster = ([cx, cy]: number[], size: number) => {
    const into = Math.atan2(H / 2 - cy!, W / 2 - cx!) * (180 / Math.PI);
    const leaves = Array.from({ length: Math.round(34 * size) }, () => {
      const angle = into + between(rand, -70, 70);
      const reach = between(rand, 60, 420 * size);
      const rad = (angle * Math.PI) / 180;
      return place(
        cx! + Math.cos(rad) * reach * 0.7,
        cy! + Math.sin(rad) * reach * 0.7,
        angle + between(rand, -35, 35),
        leaf(between(rand, 130, 240), pick(rand, greens), "#1e4326"),
      );
    }).join("");
    const flowers = Array.from({ length: Math.round(8 * size) }, () => {
      const angle = ((into + between(rand, -55, 55)) * Math.PI) / 180;
      const reach = between(rand, 80, 380 * size);
      const [petal, heart] = pick(rand, blooms);
      return place(cx! + Math.cos(angle) * reach, cy! + Math.sin(angle) * reach, rand() * 72, flower(between(rand, 40, 70), petal, heart));
    }).join("");
    return `<g filter="url(#shadow)">${leaves}${flowers}</g>`;
  };
  const lights = Array.from({ length: 10 }, () => {
    const { x, y } = edgePoint(rand, 0.5);
    return `<circle cx="${n(x)}" cy="${n(y)}" r="${n(between(rand, 60, 160))}" fill="#d8f0c0" fill-opacity="0.12"/>`;
  }).join("");
  const petals = Array.from({ length: 26 }, () => {
    const { x, y } = edgePoint(rand, 0.7);
    return place(
      x,
      y,
      rand() * 360,
      `<ellipse rx="12" ry="7" fill="${pick(rand, ["#f7c6d4", "#ffffff", "#ffe08a"])}" fill-opacity="0.8"/>`,
    );
  }).join("");
  return svg(
    defs,
    fill("url(#bg)") +
      `<g filter="url(#light)">${lights}</g>` +
      cluster(corners[0]!, 1.2) +
      cluster(corners[1]!, 1.1) +
      cluster(corners[2]!, 0.6) +
      petals,
  );
}

function scrapbook(kind: Kind) {
  const rand = sequence(`scrapbook-${kind}`);
  const defs =
    radial(
      "kraft",
      [
        [0, "#f0e0c0"],
        [0.7, "#e2cb9f"],
        [1, "#d2b684"],
      ],
      0.5,
      0.5,
      0.85,
    ) +
    `<filter id="lift" x="-20%" y="-20%" width="140%" height="140%"><feDropShadow dx="3" dy="6" stdDeviation="6" flood-color="#5a4020" flood-opacity="0.3"/></filter>`;
  const fibres = Array.from({ length: 500 }, () => {
    const x = rand() * W;
    const y = rand() * H;
    const a = rand() * Math.PI;
    const l = between(rand, 6, 18);
    return `<path d="M${n(x)} ${n(y)} l${n(Math.cos(a) * l)} ${n(Math.sin(a) * l)}" stroke="${pick(rand, ["#c4a46f", "#f6ead2", "#b89560"])}" stroke-width="1.4" stroke-opacity="0.45"/>`;
  }).join("");
  const scrap = (x: number, y: number, w: number, h: number, angle: number, colour: string) =>
    place(x, y, angle, `<rect x="${-w / 2}" y="${-h / 2}" width="${w}" height="${h}" fill="${colour}" filter="url(#lift)"/>`);
  // Washi tape: a pale strip with stripes or dots of a deeper shade.
  const washi = { pink: ["#f9d2d2", "#f1a3a8"], blue: ["#cfe6f2", "#8cc3de"], yellow: ["#f8e7a6", "#eec65a"] } as const;
  const tape = (x: number, y: number, angle: number, colour: keyof typeof washi, dotted = false) => {
    const [base, mark] = washi[colour];
    const marks = Array.from({ length: 10 }, (_, i) =>
      dotted
        ? `<circle cx="${-99 + i * 22}" cy="0" r="5" fill="${mark}"/>`
        : `<path d="M${-104 + i * 22} 24 L${-92 + i * 22} -24" stroke="${mark}" stroke-width="7"/>`,
    ).join("");
    return place(x, y, angle, `<g opacity="0.88"><rect x="-110" y="-24" width="220" height="48" fill="${base}"/>${marks}</g>`);
  };
  const sticker = (x: number, y: number, body: string) => `<g filter="url(#lift)">${place(x, y, between(rand, -15, 15), body)}</g>`;
  const star = `<path d="M0 -34 L10 -10 L34 -10 L14 6 L22 32 L0 16 L-22 32 L-14 6 L-34 -10 L-10 -10Z" fill="#f2a93b" stroke="#ffffff" stroke-width="4"/>`;
  const heart = `<path d="M0 26 C-40 -4 -32 -36 -8 -32 C-2 -30 0 -24 0 -20 C0 -24 2 -30 8 -32 C32 -36 40 -4 0 26Z" fill="#e8607a" stroke="#ffffff" stroke-width="4"/>`;
  const dots = `<circle r="16" fill="#5aa9c9" stroke="#ffffff" stroke-width="4"/>`;
  const pieces =
    kind === "intro"
      ? scrap(150, 160, 380, 260, -12, "#fbf6ea") +
        scrap(1790, 940, 420, 280, 9, "#fdfbf5") +
        scrap(1760, 120, 300, 200, 14, "#cfe3ea") +
        scrap(120, 960, 300, 220, 6, "#f4d7d7") +
        tape(260, 60, -8, "pink") +
        tape(1700, 830, 12, "blue", true) +
        tape(1790, 250, 40, "yellow") +
        sticker(430, 300, star) +
        sticker(1520, 960, heart) +
        sticker(1560, 230, dots)
      : scrap(1770, 150, 400, 280, 10, "#fbf6ea") +
        scrap(160, 930, 420, 270, -8, "#fdfbf5") +
        scrap(150, 110, 300, 210, -14, "#f6e2b8") +
        scrap(1800, 980, 280, 220, -6, "#d9e9d3") +
        tape(1650, 50, 6, "blue", true) +
        tape(260, 820, -10, "pink") +
        tape(140, 260, -38, "yellow") +
        sticker(1480, 300, heart) +
        sticker(420, 960, star) +
        sticker(380, 200, dots);
  return svg(defs, fill("url(#kraft)") + fibres + pieces);
}

const DESIGNS: Record<string, (kind: Kind) => string> = {
  "golden-hour": goldenHour,
  confetti,
  "classic-ivory": classicIvory,
  midnight,
  "handwritten-notes": handwrittenNotes,
  "modern-mono": modernMono,
  "garden-collage": gardenCollage,
  scrapbook,
};

// ——— Previews: the intro with photo frames laid out as the theme's first scene lays them ———

/** A stand-in photo: a soft landscape, so the frame reads as "a picture goes here". */
function samplePhoto(x: number, y: number, w: number, h: number, angle: number, tint: number) {
  const border = 16;
  return place(
    x,
    y,
    angle,
    `<rect x="${-w / 2 - border}" y="${-h / 2 - border}" width="${w + border * 2}" height="${h + border * 2}" rx="6" fill="#ffffff" filter="url(#frameShadow)"/>` +
      `<rect x="${-w / 2}" y="${-h / 2}" width="${w}" height="${h}" fill="url(#photoSky${tint % 4})"/>` +
      `<circle cx="${n(w * 0.22)}" cy="${n(-h * 0.18)}" r="${n(h * 0.12)}" fill="#ffffff" fill-opacity="0.85"/>` +
      `<path d="M${-w / 2} ${n(h * 0.2)} Q${n(-w * 0.2)} ${n(-h * 0.12)} ${n(w * 0.05)} ${n(h * 0.12)} T${w / 2} ${n(h * 0.05)} V${h / 2} H${-w / 2}Z" fill="#8fc79a"/>` +
      `<path d="M${-w / 2} ${n(h * 0.34)} Q${n(w * 0.1)} ${n(h * 0.08)} ${w / 2} ${n(h * 0.3)} V${h / 2} H${-w / 2}Z" fill="#5fa776"/>`,
  );
}

function previewSvg(theme: BuiltInTheme, intro: string) {
  const photoDefs =
    `<filter id="frameShadow" x="-20%" y="-20%" width="140%" height="140%"><feDropShadow dx="0" dy="14" stdDeviation="18" flood-color="#000" flood-opacity="0.35"/></filter>` +
    [
      ["#bfe0ff", "#fef3df"],
      ["#ffd6c2", "#fff3e3"],
      ["#d6ccff", "#f3f0ff"],
      ["#c6ecd9", "#f2fbf5"],
    ]
      .map(([a, b], i) =>
        linear(`photoSky${i}`, [
          [0, a!],
          [1, b!],
        ]),
      )
      .join("");
  const scene = theme.isCollage ? theme.scenes.find((s) => s.kind === "collage") : undefined;
  const layouts: Record<number, [number, number, number, number, number][]> = {
    1: [[960, 470, 860, 500, -2]],
    2: [
      [660, 470, 620, 420, -4],
      [1260, 450, 620, 420, 3],
    ],
    3: [
      [560, 500, 520, 360, -5],
      [960, 420, 520, 360, 2],
      [1360, 500, 520, 360, 5],
    ],
    4: [
      [700, 300, 520, 300, -3],
      [1220, 300, 520, 300, 3],
      [700, 680, 520, 300, 2],
      [1220, 680, 520, 300, -2],
    ],
  };
  const frames = (layouts[scene?.photos ?? 1] ?? layouts[1]!).map(([x, y, w, h, a], i) => samplePhoto(x, y, w, h, a, i)).join("");
  // The intro's own <svg> is nested, keeping its ids apart from the frames' ones.
  return svg(photoDefs, intro.replace("<svg ", `<svg x="0" y="0" `) + frames);
}

// ——— Writing the files ———

/** Encodes at quality 85, stepping down only if a picture would pass the size limit. */
async function writeJpeg(input: Buffer, file: string, width: number, height: number) {
  for (const quality of [85, 80, 75, 70]) {
    const data = await sharp(input, { density: 72 })
      .resize(width, height)
      .flatten({ background: "#ffffff" })
      .jpeg({ quality, mozjpeg: true, chromaSubsampling: "4:2:0" })
      .toBuffer();
    if (data.length <= MAX_BYTES || quality === 70) {
      await fs.writeFile(file, data);
      return { bytes: data.length, quality };
    }
  }
  throw new Error("unreachable");
}

for (const theme of BUILT_IN_THEMES) {
  const design = DESIGNS[theme.slug];
  if (!design) throw new Error(`No artwork for the built-in theme "${theme.slug}": add one to DESIGNS.`);
  const dir = path.join(OUT, theme.slug);
  await fs.mkdir(dir, { recursive: true });
  const intro = design("intro");
  const pictures: [string, string, number, number][] = [
    ["intro", intro, W, H],
    ["outro", design("outro"), W, H],
    ["preview", previewSvg(theme, intro), 480, 270],
  ];
  for (const [name, source, width, height] of pictures) {
    const { bytes, quality } = await writeJpeg(Buffer.from(source), path.join(dir, `${name}.jpg`), width, height);
    console.log(`${theme.slug}/${name}.jpg  ${width}x${height}  ${Math.round(bytes / 1024)} KB  q${quality}`);
    if (bytes > MAX_BYTES) throw new Error(`${theme.slug}/${name}.jpg is over ${MAX_BYTES / 1024} KB`);
  }
}
