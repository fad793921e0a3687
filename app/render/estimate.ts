// How long the rest of a render will take, from how fast this machine rendered its latest pieces
// (their wall-clock time is kept with each stored piece). Pure: the figures come in, a number goes out.

import type { PlanPiece } from "./plan";

/** Pieces whose cost per frame is alike: a scene's pieces decode its sources, a crossfade two short files. */
export type PieceGroup = "scene" | "crossfade" | "soundtrack";

export const groupOf = (kind: string): PieceGroup => (kind === "transition" ? "crossfade" : kind === "soundtrack" ? "soundtrack" : "scene");

/** A piece rendered lately at the same output size: its frames and the seconds it took. */
export interface TimedPiece {
  kind: string;
  frames: number;
  renderSeconds: number;
}

/** Measured seconds per output frame of each group; null where nothing of the group was timed. */
export function secondsPerFrame(timings: readonly TimedPiece[]): Record<PieceGroup, number | null> {
  const sums: Record<PieceGroup, { frames: number; seconds: number }> = {
    scene: { frames: 0, seconds: 0 },
    crossfade: { frames: 0, seconds: 0 },
    soundtrack: { frames: 0, seconds: 0 },
  };
  for (const timing of timings) {
    if (timing.frames <= 0 || !(timing.renderSeconds >= 0)) continue;
    const sum = sums[groupOf(timing.kind)];
    sum.frames += timing.frames;
    sum.seconds += timing.renderSeconds;
  }
  const rate = ({ frames, seconds }: { frames: number; seconds: number }) => (frames > 0 ? seconds / frames : null);
  return { scene: rate(sums.scene), crossfade: rate(sums.crossfade), soundtrack: rate(sums.soundtrack) };
}

/**
 * What a render would still have to make: scenes with a piece missing (a scene is several pieces,
 * its own and its parts, made in one run), crossfades, and the frames they add up to.
 */
export function remainingWork(missing: readonly Pick<PlanPiece, "kind" | "frames" | "scene">[]) {
  const count = (group: PieceGroup) => missing.filter((p) => groupOf(p.kind) === group);
  const scenes = count("scene");
  const crossfades = count("crossfade");
  return {
    scenes: new Set(scenes.map((p, i) => p.scene ?? `piece ${i}`)).size,
    crossfades: crossfades.length,
    soundtrack: count("soundtrack").length > 0,
    /** Frames of video still to encode (scenes and crossfades; the soundtrack is sound only). */
    videoFrames: [...scenes, ...crossfades].reduce((sum, p) => sum + p.frames, 0),
  };
}

/**
 * Seconds the missing pieces would take: scenes and crossfades share `concurrency` render slots,
 * the soundtrack runs beside them (counted in full, which errs on the long side). Null when some
 * kind of piece still to make has no recent timing to go by: no guess is better than a made-up one.
 */
export function estimateSeconds(
  missing: readonly Pick<PlanPiece, "kind" | "frames">[],
  timings: readonly TimedPiece[],
  concurrency: number,
): number | null {
  const rates = secondsPerFrame(timings);
  let slotted = 0;
  let beside = 0;
  for (const piece of missing) {
    const group = groupOf(piece.kind);
    const rate = rates[group];
    if (rate === null) return null;
    if (group === "soundtrack") beside += rate * piece.frames;
    else slotted += rate * piece.frames;
  }
  return Math.round(slotted / Math.max(1, concurrency) + beside);
}
