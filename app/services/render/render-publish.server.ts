// Publishing a finished render as the event's current video: by hand (the organiser or staff), or
// when a render asked to be published is done, in the transaction that says it succeeded.
import type { RenderJob, User } from "drizzle/schema";
import { db, type Db } from "~/lib/db.server";
import { ApiError } from "~/lib/http.server";
import { findEventById } from "~/models/event.server";
import { publishVersion } from "~/models/published-media.server";
import { markRenderSucceeded, updateRenderJob } from "~/models/render-job.server";
import type { RenderPlan } from "~/render/plan";
import { notify } from "~/services/events/notifications.server";
import { queueVideoLadder } from "~/services/render/video-ladder.server";

/** Publishes a finished render as the event's current video (at most once per render). */
export async function publishRenderJob(job: RenderJob, by: User | null) {
  if (job.status !== "succeeded" || !job.outputKey) throw new ApiError(409, "CONFLICT", "Only a finished render can be published.");
  return publishVersionOf(job, by);
}

/**
 * Publishes a render that was asked to be published when done, and says it succeeded, in one
 * transaction: whoever sees "succeeded" also sees the new version, and a stop asked for first
 * publishes nothing (null). A crash in between re-renders from stored pieces and finds the version
 * published already: it stands, and the render succeeded.
 */
export async function publishAsSucceeded(job: RenderJob) {
  let succeeded: RenderJob | null = null;
  const stopped = new Error("stopped before it was published");
  try {
    const version = await publishVersionOf(job, null, async (tx) => {
      succeeded = await markRenderSucceeded(tx, job.id);
      if (!succeeded) throw stopped;
    });
    return succeeded ?? (version ? await updateRenderJob(db(), job.id, { status: "succeeded", finishedAt: new Date() }) : null);
  } catch (error) {
    if (error === stopped) return null;
    throw error;
  }
}

async function publishVersionOf(job: RenderJob, by: User | null, beforeCommit?: (tx: Db) => Promise<void>) {
  if (!job.outputKey) throw new Error(`render ${job.id} has no video to publish`);
  const { version, created } = await publishVersion(
    db(),
    {
      eventId: job.eventId,
      renderJobId: job.id,
      videoKey: job.outputKey,
      posterKey: job.posterKey,
      durationSeconds: job.durationSeconds,
      width: (job.plan as RenderPlan | null)?.profile.width ?? null,
      height: (job.plan as RenderPlan | null)?.profile.height ?? null,
      sizeBytes: job.sizeBytes,
      publishedById: by?.id ?? job.requestedById,
    },
    async (tx, version) => {
      await beforeCommit?.(tx);
      await queueVideoLadder(tx, version);
    },
  );
  if (created) {
    const event = await findEventById(db(), job.eventId, { withDeleted: true });
    if (event) {
      await notify([
        {
          userId: event.creatorId,
          eventId: event.id,
          kind: "video-published",
          title: `Version ${version.version} of your video is published`,
          body: "The recipient's link now plays it. You can still change the arrangement and publish again.",
          url: `/e/${event.uuid}/arrange#render`,
        },
      ]);
    }
  }
  return version;
}
