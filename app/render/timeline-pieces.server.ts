// The pieces made from scenes (docs/decisions/011, 033): a crossfade from one scene's tail and the
// next one's head, the soundtrack from every scene's sound and the music. A render and preparation
// make them alike; when to make them, and in which slot, is theirs.

import path from "node:path";
import { renderSoundtrack, renderTransition, type PieceContext } from "./pieces";
import type { RenderPlan, Transition } from "./plan";
import type { KeepPiece } from "./scene-pieces.server";

type Context = Pick<PieceContext, "profile" | "workDir" | "signal" | "onFrames">;

const timingOf = (ctx: Context, startedAt: number, frames: number) => ({
  resolution: ctx.profile.resolution,
  seconds: (Date.now() - startedAt) / 1000,
  frames,
});

/** Makes the crossfade from the tail and head files of its two scenes, and keeps it. */
export async function makeCrossfade(
  transition: Transition,
  tail: string | undefined,
  head: string | undefined,
  ctx: Context,
  keep: KeepPiece,
) {
  if (!tail || !head) throw new Error(`Crossfade ${transition.index} is missing its tail or head piece.`);
  const startedAt = Date.now();
  const file = await renderTransition(tail, head, transition.frames, ctx);
  return keep(transition.key, "transition", { body: file }, transition.frames, timingOf(ctx, startedAt, transition.frames));
}

/**
 * Mixes the soundtrack of the whole timeline from each scene's sound (null for a scene nobody
 * hears: a photo, a card) and the music, and keeps it.
 */
export async function makeSoundtrack(
  plan: RenderPlan,
  sound: readonly (string | null)[],
  music: string | null,
  ctx: Context,
  keep: KeepPiece,
) {
  const startedAt = Date.now();
  const file = await renderSoundtrack(plan, sound, music, path.join(ctx.workDir, "soundtrack.m4a"), ctx);
  return keep(plan.soundtrackKey, "soundtrack", { audio: file }, plan.totalFrames, timingOf(ctx, startedAt, plan.totalFrames));
}
