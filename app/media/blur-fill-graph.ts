// The video filter that places a picture of any shape in a fixed frame: on a blurred, scaled-up
// copy of itself instead of black bars (docs/architecture.md "Media and render pipeline"). Sizes are
// computed here rather than with scale's expressions so the graph runs the same on ffmpeg 4.1
// (no `force_divisible_by`) and later versions.

export type Frame = { width: number; height: number };

/** Aspect ratios closer than this are simply scaled: the stretch is invisible. */
const SAME_ASPECT_TOLERANCE = 0.01;
/** The background is blurred at 1/8 of the frame size: the same look for a fraction of the work. */
const BACKGROUND_SCALE = 8;

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);

/** The largest even-sized box of `aspect` (width / height) inside the frame. */
export function fitInside(aspect: number, frame: Frame): Frame {
  return aspect >= frame.width / frame.height
    ? { width: frame.width, height: Math.min(frame.height, even(frame.width / aspect)) }
    : { width: Math.min(frame.width, even(frame.height * aspect)), height: frame.height };
}

/** The smallest even-sized box of `aspect` that covers the frame. */
export function coverFrame(aspect: number, frame: Frame): Frame {
  return aspect >= frame.width / frame.height
    ? { width: Math.max(frame.width, even(Math.ceil(frame.height * aspect))), height: frame.height }
    : { width: frame.width, height: Math.max(frame.height, even(Math.ceil(frame.width / aspect))) };
}

/**
 * How much larger than it fits a portrait picture is shown, when its subject is known: a 9:16 clip
 * fitted whole is a strip a third of the frame wide; a quarter larger it is 760 pixels of 1920 at
 * 1080p, and a fifth of its height is left out, above and below its subject (docs/decisions/053).
 */
export const PORTRAIT_FILL_ZOOM = 1.25;

/**
 * Where a portrait picture sits in the frame when its subject is `focusY` (a share of its height)
 * down: enlarged by PORTRAIT_FILL_ZOOM, and the frame's height of it kept around the subject, as
 * near its middle as the picture allows. Null for a picture that is not portrait: it is fitted whole.
 */
export function portraitWindow(aspect: number, frame: Frame, focusY: number) {
  if (aspect >= 1) return null;
  const fitted = fitInside(aspect, frame);
  const scaled = { width: even(fitted.width * PORTRAIT_FILL_ZOOM), height: even(fitted.height * PORTRAIT_FILL_ZOOM) };
  const shown = { width: Math.min(scaled.width, frame.width), height: frame.height };
  const top = Math.min(scaled.height - shown.height, Math.max(0, focusY * scaled.height - shown.height / 2));
  return { scaled, shown, top: Math.round(top / 2) * 2, left: Math.floor((scaled.width - shown.width) / 2) };
}

/**
 * A filtergraph chain from `input` to `output` (labels without brackets) for pictures of display
 * aspect `aspect` (after rotation and pixel aspect), ending in square-pixel yuv420p frames. With
 * `focusY`, a portrait picture is framed on its subject (`portraitWindow`) instead of fitted whole.
 */
export function blurFillGraph(input: string, output: string, aspect: number, frame: Frame, fps: number, focusY?: number): string {
  const head = `[${input}]fps=${fps}`;
  const tail = `setsar=1,format=yuv420p[${output}]`;
  if (Math.abs(aspect / (frame.width / frame.height) - 1) < SAME_ASPECT_TOLERANCE) {
    return `${head},scale=${frame.width}:${frame.height},${tail}`;
  }
  const small = { width: even(frame.width / BACKGROUND_SCALE), height: even(frame.height / BACKGROUND_SCALE) };
  const smallCover = coverFrame(aspect, small);
  const window = focusY === undefined ? null : portraitWindow(aspect, frame, focusY);
  const fitted = window?.shown ?? fitInside(aspect, frame);
  const x = Math.floor((frame.width - fitted.width) / 2);
  const y = Math.floor((frame.height - fitted.height) / 2);
  const picture = window
    ? `scale=${window.scaled.width}:${window.scaled.height},crop=${window.shown.width}:${window.shown.height}:${window.left}:${window.top}`
    : `scale=${fitted.width}:${fitted.height}`;
  return [
    `${head},split=2[bg][fg]`,
    // boxblur's radius must stay under half the smallest (chroma) plane: min(w,h)/6 always does.
    `[bg]scale=${smallCover.width}:${smallCover.height},crop=${small.width}:${small.height},` +
      `boxblur=luma_radius=min(w\\,h)/6:luma_power=2,scale=${frame.width}:${frame.height},setsar=1[blurred]`,
    `[fg]${picture},setsar=1[fitted]`,
    `[blurred][fitted]overlay=${x}:${y},${tail}`,
  ].join(";");
}
