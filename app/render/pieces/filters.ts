// Filter snippets shared by the piece graphs (pure). Expressions avoid commas, so nothing in
// them needs filtergraph escaping.

import { type CameraMotion, PAN_SHARE, cameraPath, isPan } from "../camera";
import type { PhotoFocus } from "../plan";
import type { FrameSize } from "./cards.server";

/**
 * A still (JPEG, PNG) as a video frame of the output size. Stills are RGB or full-range BT.601
 * JPEG; the video is limited-range BT.709, as HD players expect and as the pieces are tagged.
 */
export const stillToFrame = ({ width, height }: FrameSize, pixels: "yuv420p" | "yuv444p" = "yuv420p") =>
  `scale=${width}:${height}:in_color_matrix=bt601:in_range=full:out_color_matrix=bt709:out_range=tv,format=${pixels},setsar=1`;

/** A transparent PNG ready to be overlaid on the video, in the same colours. */
export const overlayImage = () => "scale=out_color_matrix=bt709:out_range=tv,format=yuva420p";

const number = (n: number) => (Math.abs(n) < 1e-12 ? "0" : n.toFixed(10).replace(/\.?0+$/, ""));

/** An edge of the window as a share of the picture, `a + b * n` at the chain's own frame `n`. */
type Line = readonly [a: number, b: number];

/**
 * The window's edges (shares of the picture) for a chain whose frame 0 is frame `firstFrame` of a
 * move of `frames` frames: it moves linearly from the first to the last frame of the move, framed
 * on the photo's subject when it is known (camera.ts).
 */
export function cameraWindow(motion: CameraMotion, frames: number, firstFrame = 0, focus: PhotoFocus | null = null) {
  const { from, to } = cameraPath(motion, focus);
  const step = frames > 1 ? 1 / (frames - 1) : 0;
  const edge = (centre: number, size: number, side: -1 | 1) => centre + (side * size) / 2;
  const line = (start: number, end: number): Line => [start + (end - start) * step * firstFrame, (end - start) * step];
  return {
    left: line(edge(from.centreX, from.size, -1), edge(to.centreX, to.size, -1)),
    right: line(edge(from.centreX, from.size, 1), edge(to.centreX, to.size, 1)),
    top: line(edge(from.centreY, from.size, -1), edge(to.centreY, to.size, -1)),
    bottom: line(edge(from.centreY, from.size, 1), edge(to.centreY, to.size, 1)),
  };
}

/**
 * A still as the frame its camera move starts from (made once per still, before its frames are
 * repeated). A pan's is in full-resolution colour, so its crops can start at any pixel, with a
 * margin of repeated edge pixels (see `panPlacement`).
 */
export function cameraSource(motion: CameraMotion, frame: FrameSize): string {
  if (!isPan(motion)) return stillToFrame(frame);
  const m = PAN_MARGIN;
  return (
    `${stillToFrame(frame, "yuv444p")},pad=${frame.width + 2 * m}:${frame.height + 2 * m}:${m}:${m},` +
    `fillborders=left=${m}:right=${m}:top=${m}:bottom=${m}:mode=smear`
  );
}

/**
 * The camera move over the still's repeated frames (after `cameraSource`): each frame samples a
 * window of the still with sub-pixel precision (bilinear), so slow zooms and pans glide instead of
 * stepping a whole pixel at a time as crop and zoompan do. The window moves linearly from the first
 * to the last of `frames` frames; the filter's own frames start at frame `firstFrame` of that move.
 */
export function cameraMove(
  motion: CameraMotion,
  frames: number,
  firstFrame: number,
  frame: FrameSize,
  focus: PhotoFocus | null = null,
): string {
  const window = cameraWindow(motion, frames, firstFrame, focus);
  return isPan(motion) ? panMove(window, frame) : perspectiveMove(window);
}

/** `scale * (a + b * n)`, the corner coordinate at the filter's frame n (its `in` counts from 1). */
const linear = (scale: "W" | "H", [a, b]: Line) => `${scale}*(${number(a)}+(${number(b)})*(in-1))`;

/**
 * A zoom as a `perspective` filter, whose corners can be anywhere: it costs ~25 ms of CPU a 1080p
 * frame (docs/decisions/041), but a zoom changes its scale every frame, which a fixed-size scaler
 * cannot follow.
 */
function perspectiveMove(window: ReturnType<typeof cameraWindow>): string {
  const { left, right, top, bottom } = window;
  const x = (e: Line) => linear("W", e);
  const y = (e: Line) => linear("H", e);
  return (
    `perspective=x0='${x(left)}':y0='${y(top)}':x1='${x(right)}':y1='${y(top)}':` +
    `x2='${x(left)}':y2='${y(bottom)}':x3='${x(right)}':y3='${y(bottom)}':interpolation=linear:sense=source:eval=frame`
  );
}

/**
 * Pixels of repeated edge around a panned still, so that every window position has its crops
 * inside: the source crop starts up to `2 * num` pixels before the window and is up to `3 * num`
 * pixels wider than it (see `panPlacement`).
 */
export const PAN_MARGIN = 3 * PAN_SHARE.num;

/** The inverse of `value` modulo `modulus` (they have no common factor). */
function inverseModulo(value: number, modulus: number) {
  for (let k = 1; k < modulus; k++) if ((value * k) % modulus === 1) return k;
  throw new RangeError(`${value} has no inverse modulo ${modulus}`);
}

/**
 * Integer crops and one scaler that show a pan's window (docs/decisions/041). A pan keeps its
 * scale, `num/den` of a source pixel an output pixel, so one `scale` of a fixed-size source crop
 * (`size`) to a fixed size (`scaled`) does it, for a tenth of the CPU of `perspective`. Where the
 * window starts is `source + offset * num/den` source pixels, both whole numbers: where the source
 * crop starts and where the scaled picture is cropped. Together they place the window to 1/den of a
 * source pixel, as a vernier does: `den * source + num * offset` is the start in 1/den pixels.
 * `start` is in pixels of the still; `source` in pixels of the still with its margin.
 */
function panPlacement(start: number, length: number) {
  const { num, den } = PAN_SHARE;
  // Room for offsets up to 2 * den - 1: whatever the remainder, an even one (for 4:2:0) exists.
  const scaled = den * Math.ceil((length + 2 * den - 1) / den);
  const size = (scaled / den) * num;
  const steps = Math.round(den * (start + PAN_MARGIN));
  const first = (steps * inverseModulo(num, den)) % den; // num * offset ≡ steps (mod den)
  const offset = first + (first % 2) * den;
  return { size, scaled, source: (steps - num * offset) / den, offset };
}

/** `panPlacement` of the start `a + b * n` as ffmpeg expressions of the frame `n` (no commas). */
function panPlacementExpressions([a, b]: Line) {
  const { num, den } = PAN_SHARE;
  const steps = `floor(${den}*(${number(a + PAN_MARGIN)}+(${number(b)})*n)+0.5)`;
  const product = `(${steps}*${inverseModulo(num, den)})`;
  const first = `(${product}-${den}*floor(${product}/${den}))`;
  const offset = `(${first}+${den}*(${first}-2*floor(${first}/2)))`;
  return { source: `(${steps}-${num}*${offset})/${den}`, offset };
}

function panMove(window: ReturnType<typeof cameraWindow>, { width, height }: FrameSize): string {
  const x = panPlacementExpressions([window.left[0] * width, window.left[1] * width]);
  const across = panPlacement(0, width);
  if (window.top[1] !== 0) throw new RangeError("A pan keeps its height");
  const down = panPlacement(window.top[0] * height, height);
  return (
    `crop=w=${across.size}:h=${down.size}:x='${x.source}':y=${down.source}:exact=1,` +
    `scale=${across.scaled}:${down.scaled}:flags=bilinear,format=yuv420p,` +
    `crop=w=${width}:h=${height}:x='${x.offset}':y=${down.offset}`
  );
}
