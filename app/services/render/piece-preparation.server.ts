// Piece preparation (docs/decisions/033): after every change to a Chorus's montage, the pieces
// its next render uses are made ahead, in the render slots, so a publish has only the join left.

import { enqueue } from "~/jobs/queue.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { listEventIdsWithTheme } from "~/models/arrangement.server";
import { findEventById } from "~/models/event.server";
import { jobSentSince } from "~/models/job-lease.server";
import { countContributionsInProcessing } from "~/models/media.server";
import { piecesOf } from "~/render/plan";
import { storage } from "~/services/media/storage.server";
import { nextRender } from "~/services/render/next-render.server";
import { storedPieces } from "~/services/render/render-pieces.server";
import { publishPiecesPrepared } from "~/services/render/render-realtime.server";

/**
 * The render-prepare job: makes every piece of the event's next render that is not stored yet —
 * scenes, crossfades, the soundtrack — so publishing later only has the join left; the soundtrack
 * and the closing card once no contribution is still being processed. Once the event changes
 * again (a newer preparation is queued), pieces the newer plan does not use stop. Resolves to how
 * many pieces it made; the organiser's page is told, so its "prepared" figure moves on.
 */
export async function prepareEventPieces(eventId: string) {
  const event = await findEventById(db(), eventId);
  if (!event) return 0;
  // The very plan the render panel counts and a render started now would render.
  const planned = new Date();
  const { plan, needs } = await nextRender(event);
  // A render of it would be refused (a premium choice without premium): nothing of it would be used.
  if (plan.segments.length <= 2 || needs.length) return 0;
  const { prepareRender } = await import("~/render/prepare.server");
  // Each contribution still being processed will change the soundtrack (its scene's sound goes into
  // the mix) and the closing card (its contributor's name): they wait for the last one, whose
  // arrival (or failure) queues preparation again.
  const arriving = (await countContributionsInProcessing(db(), eventId)) > 0;
  const pieces = storedPieces();
  try {
    const made = await prepareRender(plan, {
      store: pieces,
      arriving,
      sourcePath: async (key) => (await storage().localCopy(key)).path,
      newerPlan: () => newerPlanOf(eventId, planned),
    });
    if (made > 0) publishPiecesPrepared(event);
    // Nothing more is coming that would change them: the ladder's pieces next.
    if (!arriving) await queueRungPieces(eventId);
    return made;
  } finally {
    await pieces.release();
  }
}

/**
 * Lines up the rung pieces of the event's next render (docs/decisions/036), once its full-size
 * pieces are made, unless VIDEO_LADDER is off. A job of their own: the render-prepare lane is one
 * per process for every Chorus, and another Chorus's preparation must not wait behind them.
 */
async function queueRungPieces(eventId: string) {
  if (!env().VIDEO_LADDER) return;
  await enqueue("render-rungs", { eventId });
}

/**
 * The render-rungs job: makes the rung pieces of the event's next render, so the ladder of the
 * version it publishes is its rung pieces joined. Only when every full-size video piece is stored
 * and no contribution is still being processed; a change since stops it (the preparation it queues
 * comes first, and queues this again). Resolves to how many it made.
 */
export async function prepareEventRungPieces(eventId: string) {
  if (!env().VIDEO_LADDER) return 0;
  const event = await findEventById(db(), eventId);
  if (!event) return 0;
  const planned = new Date();
  const { plan, needs } = await nextRender(event);
  if (plan.segments.length <= 2 || needs.length) return 0;
  if ((await countContributionsInProcessing(db(), eventId)) > 0) return 0;
  const { prepareRungPieces } = await import("~/render/prepare.server");
  const pieces = storedPieces();
  try {
    return await prepareRungPieces(plan, { store: pieces, newerPlan: () => newerPlanOf(eventId, planned) });
  } finally {
    await pieces.release();
  }
}

/**
 * The pieces the event's next render uses now, once a change since `planned` queued its
 * preparation again: waiting for this one's lane, or already running in another process.
 */
async function newerPlanOf(eventId: string, planned: Date): Promise<ReadonlySet<string> | null> {
  if (!(await jobSentSince(db(), env().JOB_QUEUE_SCHEMA, "render-prepare", eventId, planned))) return null;
  const event = await findEventById(db(), eventId);
  if (!event) return new Set();
  const { plan, needs } = await nextRender(event);
  return needs.length ? new Set() : new Set(piecesOf(plan).map((piece) => piece.key));
}

// Long enough to take a burst of edits (a theme tried on, a caption typed and saved) as one,
// short enough that preparation starts while the organiser is still looking at the change. A
// change made while a preparation runs queues the next one, which narrows the running one to
// the pieces it still needs (prepareEventPieces).
const PREPARE_AFTER_MS = 1_000;

/**
 * Lines up piece preparation after a change to the event's montage: a contribution ready,
 * changed, moved, hidden, removed or restored; the theme; the music; the title or the recipients
 * (the opening card). One waits per event: changes made before it starts are taken with it.
 */
export async function queuePiecePreparation(eventId: string) {
  if (!env().RENDER_AHEAD) return;
  await enqueue("render-prepare", { eventId }, { startAfter: new Date(Date.now() + PREPARE_AFTER_MS) });
}

/** After a theme changed, was deleted or restored: preparation for every Chorus whose video uses it. */
export async function queuePiecePreparationOfTheme(themeId: string) {
  if (!env().RENDER_AHEAD) return;
  for (const eventId of await listEventIdsWithTheme(db(), themeId)) await queuePiecePreparation(eventId);
}
