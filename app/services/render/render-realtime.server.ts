import type { Event, RenderJob } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { findEventById, findEventsByIds } from "~/models/event.server";
import { listRecentRenderJobs } from "~/models/render-job.server";
import { roomOfUser, type RenderJobUpdate } from "~/realtime/events";
import { broadcaster } from "~/realtime/server.server";

/** The part of a render job the organiser's page and staff tools show. */
export function renderJobView(job: RenderJob, eventUuid: string): RenderJobUpdate {
  const fraction = job.status === "succeeded" ? 1 : job.framesTotal ? Math.min(1, job.framesDone / job.framesTotal) : 0;
  return {
    id: job.id,
    eventId: job.eventId,
    eventUuid,
    status: job.status,
    stopping: job.status === "running" && job.cancelRequestedAt !== null,
    resolution: job.resolution,
    publishWhenDone: job.publishWhenDone,
    percent: Math.floor(fraction * 100),
    etaSeconds: job.status === "running" ? job.etaSeconds : null,
    durationSeconds: job.durationSeconds,
    piecesRendered: job.piecesRendered,
    piecesReused: job.piecesReused,
    error: job.error,
    attempts: job.attempts,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}

/** Pushes a render's progress to the organiser (their `/users` room) and to staff. */
export async function publishRenderUpdate(job: RenderJob) {
  const io = broadcaster();
  if (!io) return;
  const event = await findEventById(db(), job.eventId, { withDeleted: true });
  if (!event) return;
  const view = renderJobView(job, event.uuid);
  io.of("/users").to(roomOfUser(event.creatorId)).emit("render:progress", view);
  io.of("/staff").emit("render:progress", view);
}

/** Tells the organiser's open arrange page that more of the next render is prepared, so it reloads its figures. */
export function publishPiecesPrepared(event: Pick<Event, "uuid" | "creatorId">) {
  broadcaster()?.of("/users").to(roomOfUser(event.creatorId)).emit("render:prepared", { eventUuid: event.uuid });
}

/** Staff's list of the latest renders, as the live updates shape them. */
export async function recentRenders() {
  const jobs = await listRecentRenderJobs(db());
  const events = new Map((await findEventsByIds(db(), [...new Set(jobs.map((j) => j.eventId))])).map((e) => [e.id, e.uuid]));
  return jobs.map((job) => renderJobView(job, events.get(job.eventId) ?? ""));
}
