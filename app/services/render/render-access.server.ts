import type { User } from "drizzle/schema";
import { z } from "zod";
import { db } from "~/lib/db.server";
import { notFound } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { findPublishedMedia } from "~/models/published-media.server";
import { findRenderJob } from "~/models/render-job.server";
import { adminOnly } from "~/services/accounts/current-user.server";
import { requireManager } from "~/services/events/events.server";

// Who may touch a render or a published version: the event's organiser (or an admin, who
// manages every event); anyone else is told it does not exist.

export const renderRequestInput = z.object({
  eventId: z.string().uuid("Choose a Chorus."),
  resolution: z.enum(["1080p", "720p"], { message: "Choose 1080p or 720p." }).optional(),
  publish: z.boolean().optional(),
});

export const publishInput = z.object({
  eventId: z.string().uuid("Choose a Chorus."),
  renderJobId: z.string().uuid("Choose a render.").optional(),
  resolution: z.enum(["1080p", "720p"], { message: "Choose 1080p or 720p." }).optional(),
});

export async function requireRenderJob(user: User | null, rawId: string | undefined) {
  const job = await findRenderJob(db(), uuidParam(rawId, "render job"));
  if (!job) throw notFound("There is no render job with this id.");
  const { event, viewer } = await requireManager(user, job.eventId).catch(() => {
    throw notFound("There is no render job with this id.");
  });
  return { job, event, viewer };
}

/** A render job for an administrator (`user`): 401 for no one, 403 for anyone else. */
export async function requireAdminRenderJob(user: User | null, rawId: string | undefined) {
  const admin = adminOnly(user);
  const job = await findRenderJob(db(), uuidParam(rawId, "render job"));
  if (!job) throw notFound("There is no render job with this id.");
  return { job, admin };
}

export async function requirePublishedVersion(user: User | null, rawId: string | undefined) {
  const version = await findPublishedMedia(db(), uuidParam(rawId, "published video"));
  if (!version) throw notFound("There is no published video with this id.");
  const { event, viewer } = await requireManager(user, version.eventId).catch(() => {
    throw notFound("There is no published video with this id.");
  });
  return { version, event, viewer };
}
