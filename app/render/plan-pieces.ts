// The pieces a render plan is stored and joined as (docs/decisions/011, 033, 038): each scene's own
// piece and its parts, the crossfades and the soundtrack. What the render panel counts as prepared,
// what a render reuses and what the HLS ladder is made from are all listed from here. Pure.

import type { RenderPlan, ScenePart, Segment } from "./plan-types";

/** Frames of a segment that are its own (not shared with a neighbour in a crossfade). */
export const bodyFrames = (segment: Segment) => segment.frames - segment.headFrames - segment.tailFrames;

/** One stored piece a render of the plan uses: a scene's head, tail and sound, a part of a scene, a crossfade or the soundtrack. */
export interface PlanPiece {
  key: string;
  kind: Segment["kind"] | ScenePart["kind"] | "transition" | "soundtrack";
  /** Output frames it makes (a scene's head and tail; a part's own; the soundtrack's, the timeline). */
  frames: number;
  /** The index of the segment it is a piece of; null for a crossfade or the soundtrack. */
  scene: number | null;
}

/** The pieces one segment is stored as: its head, tail and sound, then each of its parts. */
export function segmentPieces(segment: Segment): PlanPiece[] {
  return [
    { key: segment.key, kind: segment.kind, frames: segment.headFrames + segment.tailFrames, scene: segment.index },
    ...segment.parts.map((part) => ({ key: part.key, kind: part.kind, frames: part.end - part.start, scene: segment.index })),
  ];
}

/**
 * Every piece a render of the plan reuses or renders, the soundtrack last. What the render panel
 * counts as prepared and what a render reports as reused are both counted over this list.
 */
export function piecesOf(plan: RenderPlan): PlanPiece[] {
  return [
    ...plan.segments.flatMap(segmentPieces),
    ...plan.transitions.map((t) => ({ key: t.key, kind: "transition" as const, frames: t.frames, scene: null })),
    { key: plan.soundtrackKey, kind: "soundtrack" as const, frames: plan.totalFrames, scene: null },
  ];
}

/**
 * The video pieces a render joins, in join order: each scene's parts, then the crossfade after it.
 * The HLS ladder is made from these at each of its smaller sizes (docs/decisions/036).
 */
export function joinedVideoPieces(plan: RenderPlan): Array<{ key: string; frames: number }> {
  const crossfadeAfter = new Map(plan.transitions.map((t) => [t.from, t]));
  return plan.segments.flatMap((segment, i) => {
    const crossfade = crossfadeAfter.get(i);
    return [
      ...segment.parts.map((part) => ({ key: part.key, frames: part.end - part.start })),
      ...(crossfade ? [{ key: crossfade.key, frames: crossfade.frames }] : []),
    ];
  });
}
