import type { Event } from "drizzle/schema";
import { premiumNeedsOf } from "~/domain/commerce/premium";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { findStoredRenderPieceKeys, listRecentRenderPieceTimings } from "~/models/render-piece.server";
import { estimateSeconds, remainingWork } from "~/render/estimate";
import { piecesOf, segmentPieces, type RenderPlan, type Resolution } from "~/render/plan";
import { renderPlanFor } from "~/services/render/render-plan.server";
import { renderChoicesOf } from "~/services/render/render-premium.server";

// The one place that decides what the next render of an event is: the render panel counts its
// prepared pieces over this plan, the render-ahead job prepares this plan, and every render (the
// arrange page's, POST /api/publish/media, staff's) renders it. So "prepared" is what gets reused.

/** How many recent pieces the time estimate goes by. */
const TIMED_PIECES = 40;

/**
 * The render the event would get now: its plan at the size chosen (`requested`, else the
 * Chorus's default: 720p without the premium finish) and what of it needs premium.
 */
export async function nextRender(event: Event, requested?: Resolution) {
  const { premium, choices } = await renderChoicesOf(event, requested);
  const plan = await renderPlanFor(event, { resolution: choices.resolution });
  return { premium, choices, plan, needs: premium ? [] : premiumNeedsOf(choices) };
}

/**
 * What of the plan is rendered already, what a render would still have to make, and how long
 * that would take on this machine going by its latest pieces (null with nothing to go by).
 */
export async function preparedPieces(plan: RenderPlan) {
  const pieces = piecesOf(plan);
  const [stored, timings] = await Promise.all([
    findStoredRenderPieceKeys(
      db(),
      pieces.map((p) => p.key),
    ),
    listRecentRenderPieceTimings(db(), plan.profile.resolution, TIMED_PIECES),
  ]);
  const missing = pieces.filter((p) => !stored.has(p.key));
  const scenes = plan.segments.length;
  return {
    /** Pieces a render now would reuse, of all it needs: what its "reused" figure will say. */
    reusable: pieces.length - missing.length,
    pieces: pieces.length,
    /** Scenes (the opening and closing cards too) rendered already, of all. */
    scenesPrepared: scenes - plan.segments.filter((s) => segmentPieces(s).some((p) => !stored.has(p.key))).length,
    scenes,
    remaining: remainingWork(missing),
    estimateSeconds: estimateSeconds(missing, timings, env().RENDER_CONCURRENCY),
  };
}
