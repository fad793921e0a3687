// The slow camera move over a still (pure): where its window starts and ends. With nothing known of
// the photo, zooms are centred and pans cross it; with its subject known (docs/decisions/053), a
// zoom closes in on the subject and a pan drifts towards it, and the subject is in the window from
// the first frame to the last. The filters that show the window are in pieces/filters.ts.

import { PHOTO_MOTIONS, type PhotoFocus, type PhotoMotion } from "./plan-types";

export type CameraMotion = PhotoMotion | "gentle-zoom";

/** The window at one end of a move: its share of the picture's width and height, and its centre. */
export interface Window {
  size: number;
  centreX: number;
  centreY: number;
}

export interface Move {
  from: Window;
  to: Window;
}

const ZOOM = 1.12;
/**
 * A pan shows 79/87 of the picture's width and height: a 1.1× zoom to 0.12%, as a fraction whose
 * odd denominator sets how finely the window is placed (see `panPlacement` in pieces/filters.ts).
 */
export const PAN_SHARE = { num: 79, den: 87 } as const;
const PAN_SIZE = PAN_SHARE.num / PAN_SHARE.den;

/**
 * Room kept between the subject's point and the window's edge, as a share of the picture: a face is
 * not a point, and the attention strategy's point lies near its upper left (a few percent off).
 */
const SUBJECT_ROOM = 0.1;
/** A pan that could travel less than this share of its usual way with its subject in view is a zoom instead. */
const LEAST_PAN_TRAVEL = 0.25;

export const isPan = (motion: CameraMotion) => motion === "pan-left" || motion === "pan-right";

const centred = (size: number): Window => ({ size, centreX: 0.5, centreY: 0.5 });
const clamp = (value: number, least: number, most: number) => Math.min(most, Math.max(least, value));
/** The centre nearest `at` for a window of `size` inside the picture. */
const inside = (at: number, size: number) => clamp(at, size / 2, 1 - size / 2);

/** The centres a window of `size` may have with the subject at `at` and room around it, inside the picture. */
function keepingInView(at: number, size: number) {
  return { least: Math.max(size / 2, at + SUBJECT_ROOM - size / 2), most: Math.min(1 - size / 2, at - SUBJECT_ROOM + size / 2) };
}

/** Where a move's window starts and ends. */
export function cameraPath(motion: CameraMotion, focus: PhotoFocus | null = null): Move {
  if (motion === "gentle-zoom") return { from: centred(1), to: centred(1 / 1.04) };
  if (motion === "zoom-in" || motion === "zoom-out") {
    const close = focus ? { size: 1 / ZOOM, centreX: inside(focus.x, 1 / ZOOM), centreY: inside(focus.y, 1 / ZOOM) } : centred(1 / ZOOM);
    return motion === "zoom-in" ? { from: centred(1), to: close } : { from: close, to: centred(1) };
  }
  const edges = { left: PAN_SIZE / 2, right: 1 - PAN_SIZE / 2 };
  if (!focus) {
    const row = (centreX: number): Window => ({ size: PAN_SIZE, centreX, centreY: 0.5 });
    return motion === "pan-right" ? { from: row(edges.left), to: row(edges.right) } : { from: row(edges.right), to: row(edges.left) };
  }
  // Towards the subject's side (the planned way when it is in the middle), as far as it stays in view.
  const towardsRight = Math.abs(focus.x - 0.5) < 0.02 ? motion === "pan-right" : focus.x > 0.5;
  const range = keepingInView(focus.x, PAN_SIZE);
  const start = clamp(towardsRight ? edges.left : edges.right, range.least, range.most);
  const end = clamp(towardsRight ? edges.right : edges.left, range.least, range.most);
  const centreY = inside(focus.y, PAN_SIZE);
  return { from: { size: PAN_SIZE, centreX: start, centreY }, to: { size: PAN_SIZE, centreX: end, centreY } };
}

/**
 * A photo's move, chosen by its place so neighbours differ; a pan whose subject is so near a side
 * that it could hardly move with the subject in view closes in on it instead.
 */
export function photoMotionFor(index: number, focus: PhotoFocus | null): PhotoMotion {
  const motion = PHOTO_MOTIONS[index % PHOTO_MOTIONS.length]!;
  if (!focus || !isPan(motion)) return motion;
  const { from, to } = cameraPath(motion, focus);
  const usual = 1 - PAN_SIZE;
  return Math.abs(to.centreX - from.centreX) < LEAST_PAN_TRAVEL * usual ? "zoom-in" : motion;
}
