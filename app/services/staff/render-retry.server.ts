import type { RenderJob, User } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { ApiError, notFound } from "~/lib/http.server";
import { findEventById } from "~/models/event.server";
import { startRender } from "~/services/render/render-jobs.server";
import { recordStaffAction } from "./staff-actions.server";

/**
 * Tries a failed or cancelled render again: a new job with the same choices (resolution, and
 * whether to publish when done) on the Chorus as it is arranged now. When the Chorus already has a
 * render waiting or running, that one is returned and nothing new is queued.
 */
export async function retryRender(admin: User, job: RenderJob) {
  if (job.status !== "failed" && job.status !== "cancelled") {
    throw new ApiError(409, "CONFLICT", "Only a failed or cancelled render can be tried again.");
  }
  const event = await findEventById(db(), job.eventId);
  if (!event) throw notFound("The Chorus of this render no longer exists.");
  const { job: retry, created } = await startRender(event, {
    requestedBy: admin,
    publishWhenDone: job.publishWhenDone,
    resolution: job.resolution,
  });
  if (created) {
    await recordStaffAction(admin, "render_retried", { type: "event", id: event.id }, { renderJobId: job.id, newRenderJobId: retry.id });
  }
  return { job: retry, created, eventUuid: event.uuid };
}
