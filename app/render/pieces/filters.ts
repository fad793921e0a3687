// Filter snippets shared by the piece graphs (pure). Expressions avoid commas, so nothing in
// them needs filtergraph escaping.

import type { PhotoMotion } from "../plan";
import type { FrameSize } from "./cards.server";

/**
 * A still (JPEG, PNG) as a video frame of the output size. Stills are RGB or full-range BT.601
 * JPEG; the video is limited-range BT.709, as HD players expect and as the pieces are tagged.
 */
export const stillToFrame = ({ width, height }: FrameSize) =>
  `scale=${width}:${height}:in_color_matrix=bt601:in_range=full:out_color_matrix=bt709:out_range=tv,format=yuv420p,setsar=1`;

/** A transparent PNG ready to be overlaid on the video, in the same colours. */
export const overlayImage = () => "scale=out_color_matrix=bt709:out_range=tv,format=yuva420p";

/** The slow camera move over a still: where the visible window starts and ends. */
interface Move {
  /** Visible share of the picture's width and height at the first and last frame (1 = all of it). */
  from: { size: number; centreX: number };
  to: { size: number; centreX: number };
}

const ZOOM = 1.12;
const PAN_ZOOM = 1.1;

const moves: Record<PhotoMotion | "gentle-zoom", Move> = {
  "zoom-in": { from: { size: 1, centreX: 0.5 }, to: { size: 1 / ZOOM, centreX: 0.5 } },
  "zoom-out": { from: { size: 1 / ZOOM, centreX: 0.5 }, to: { size: 1, centreX: 0.5 } },
  "pan-left": { from: { size: 1 / PAN_ZOOM, centreX: 1 - 0.5 / PAN_ZOOM }, to: { size: 1 / PAN_ZOOM, centreX: 0.5 / PAN_ZOOM } },
  "pan-right": { from: { size: 1 / PAN_ZOOM, centreX: 0.5 / PAN_ZOOM }, to: { size: 1 / PAN_ZOOM, centreX: 1 - 0.5 / PAN_ZOOM } },
  "gentle-zoom": { from: { size: 1, centreX: 0.5 }, to: { size: 1 / 1.04, centreX: 0.5 } },
};

const number = (n: number) => (Math.abs(n) < 1e-12 ? "0" : n.toFixed(10).replace(/\.?0+$/, ""));

/** `scale * (a + b * in)`, the corner coordinate at input frame `in`. */
const linear = (scale: "W" | "H", a: number, b: number) => `${scale}*(${number(a)}+(${number(b)})*in)`;

/**
 * The camera move as a `perspective` filter: each frame samples a window of the still with
 * sub-pixel precision (bilinear), so slow zooms and pans glide instead of stepping a whole pixel
 * at a time as crop and zoompan do. The window moves linearly from the first to the last of
 * `frames` frames; the filter's own frames start at frame `firstFrame` of that move.
 */
export function cameraMove(motion: PhotoMotion | "gentle-zoom", frames: number, firstFrame = 0): string {
  const { from, to } = moves[motion];
  const step = frames > 1 ? 1 / (frames - 1) : 0;
  // Edges of the window as shares of the picture, each a + b * frame. A filter that starts at
  // `firstFrame` of the move counts its own frames from 0: its a is the edge at that frame.
  const edge = (centre: number, size: number, side: -1 | 1) => centre + (side * size) / 2;
  const line = (start: number, end: number) => [start + (end - start) * step * firstFrame, (end - start) * step] as const;
  const left = line(edge(from.centreX, from.size, -1), edge(to.centreX, to.size, -1));
  const right = line(edge(from.centreX, from.size, 1), edge(to.centreX, to.size, 1));
  const top = line(edge(0.5, from.size, -1), edge(0.5, to.size, -1));
  const bottom = line(edge(0.5, from.size, 1), edge(0.5, to.size, 1));
  const x = (e: readonly [number, number]) => linear("W", e[0], e[1]);
  const y = (e: readonly [number, number]) => linear("H", e[0], e[1]);
  return (
    `perspective=x0='${x(left)}':y0='${y(top)}':x1='${x(right)}':y1='${y(top)}':` +
    `x2='${x(left)}':y2='${y(bottom)}':x3='${x(right)}':y3='${y(bottom)}':interpolation=linear:sense=source:eval=frame`
  );
}
