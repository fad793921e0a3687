import { z } from "zod";
import { premiumLooksOf } from "~/domain/commerce/premium";
import { isAdmin } from "~/domain/membership";
import { db } from "~/lib/db.server";
import { badRequest, notFound } from "~/lib/http.server";
import type { toastSchema } from "~/lib/toast.server";
import { updateArrangement } from "~/models/arrangement.server";
import { findPublishedMedia, makeCurrentVersion } from "~/models/published-media.server";
import { findRenderJob, listRenderJobsOfEvent } from "~/models/render-job.server";
import { eventEntitlements } from "~/services/commerce/entitlements.server";
import { cartPathOf, eventUnlocked } from "~/services/commerce/unlock.server";
import { formText } from "~/services/events/event-page-form.server";
import { nextRender, preparedPieces } from "~/services/render/next-render.server";
import { deleteVersion, renderVideoLinks, videoVersionsOf } from "~/services/render/published-video.server";
import { cancelRender, startRender } from "~/services/render/render-jobs.server";
import { publishRenderJob } from "~/services/render/render-publish.server";
import { renderJobView } from "~/services/render/render-realtime.server";
import type { ArrangeContext, ArrangeIntent, ArrangeOutcome } from "./context.server";

const RECENT_JOBS = 5;

/** The render part: what the video would be now, renders under way or done, published versions. */
export async function loadRenderPanel({ event, user }: ArrangeContext) {
  // The plan a render started now renders, so "prepared" counts exactly the pieces it will reuse.
  const [{ premium, choices, plan }, jobs, versions] = await Promise.all([
    nextRender(event),
    listRenderJobsOfEvent(db(), event.id, RECENT_JOBS),
    videoVersionsOf(event),
  ]);
  const items = plan.segments.filter((s) => s.kind !== "title");
  // Pieces rendered ahead make publishing fast; the organiser sees how far along that is.
  const ahead = await preparedPieces(plan);
  const publishedJobIds = new Set<string>();
  for (const version of versions) {
    const row = await findPublishedMedia(db(), version.id);
    if (row?.renderJobId) publishedJobIds.add(row.renderJobId);
  }
  return {
    eventId: event.id,
    /** The quality chosen when the form opens: 1080p only with premium. */
    resolution: choices.resolution,
    /** 1080p HD and the premium themes and tracks render only with the premium finish. */
    premium,
    /** The premium theme and track chosen now, which a render without premium would be refused for. */
    premiumLooks: premium ? [] : premiumLooksOf(choices),
    plan: {
      scenes: items.length,
      photos:
        items.filter((s) => s.kind === "photo").length +
        items.filter((s) => s.kind === "collage").reduce((n, s) => n + (s.kind === "collage" ? s.mediaIds.length : 0), 0),
      clips: items.filter((s) => s.kind === "clip").length,
      durationSeconds: plan.durationSeconds,
      waiting: plan.skipped.filter((s) => s.reason === "not-ready").length,
      failed: plan.skipped.filter((s) => s.reason === "failed").length,
    },
    /** What is rendered ahead, what a render now would still make, and how long that would take. */
    ahead,
    jobs: jobs.map((job) => ({
      ...renderJobView(job, event.uuid),
      published: publishedJobIds.has(job.id),
      ...(job.status === "succeeded" && job.outputKey ? renderVideoLinks(job) : { videoUrl: null, posterUrl: null, downloadUrl: null }),
    })),
    versions,
    // Full-quality downloads are what payment unlocks (previews play either way).
    downloadable: await eventUnlocked(event),
    cartPath: cartPathOf(event),
    // Staff's whole package (originals, video, messages) is for administrators only (spec §6).
    packageUrl: isAdmin(user) ? `/api/admin/choruspackage/${event.id}` : null,
  };
}

const backToRender = (toast: z.input<typeof toastSchema>): ArrangeOutcome => ({ section: "render", toast });

const startInput = z.object({
  resolution: z.enum(["1080p", "720p"], { message: "Choose 1080p or 720p." }).optional(),
  publish: z.enum(["on"]).optional(),
});

async function jobOf(context: ArrangeContext, form: FormData) {
  const parsed = z.string().uuid().safeParse(formText(form, "jobId"));
  const job = parsed.success ? await findRenderJob(db(), parsed.data) : null;
  if (!job || job.eventId !== context.event.id) throw notFound("There is no such render of this video.");
  return job;
}

async function versionOf(context: ArrangeContext, form: FormData) {
  const parsed = z.string().uuid().safeParse(formText(form, "versionId"));
  const version = parsed.success ? await findPublishedMedia(db(), parsed.data) : null;
  if (!version || version.eventId !== context.event.id) throw notFound("There is no such version of this video.");
  return version;
}

export const renderIntents: Record<string, ArrangeIntent> = {
  async "render-start"(context, form) {
    const parsed = startInput.safeParse({
      // None sent (the 1080p choice is not offered without premium): the default for this Chorus.
      resolution: formText(form, "resolution") || undefined,
      publish: formText(form, "publish") || undefined,
    });
    if (!parsed.success) throw badRequest("Choose 1080p or 720p.", { resolution: "Choose 1080p or 720p." });
    const { job, created } = await startRender(context.event, {
      requestedBy: context.user,
      publishWhenDone: !!parsed.data.publish,
      resolution: parsed.data.resolution,
    });
    // The quality chosen with premium is the next render's default; without premium every render
    // is 720p, and buying premium later should not start from that.
    if (created && parsed.data.resolution && (await eventEntitlements(context.event)).premium) {
      await updateArrangement(db(), context.event.id, { resolution: job.resolution });
    }
    return backToRender({
      type: created ? "success" : "info",
      title: created ? "Rendering your video" : "A render is already under way",
      description: created ? "You can leave this page: we'll let you know when it's done." : "It carries on; this page shows its progress.",
    });
  },
  async "render-cancel"(context, form) {
    const stopped = await cancelRender(await jobOf(context, form));
    return backToRender(
      stopped.status === "cancelled"
        ? { type: "info", title: "Render stopped", description: "Nothing was published. Start again whenever you like." }
        : { type: "info", title: "Stopping the render", description: "It stops in a moment and publishes nothing." },
    );
  },
  async "render-publish"(context, form) {
    const version = await publishRenderJob(await jobOf(context, form), context.user);
    return backToRender({
      type: "success",
      title: `Version ${version.version} is published`,
      description: "The recipient's link now plays it. Send it from the Deliver section when you're ready.",
    });
  },
  async "version-restore"(context, form) {
    const version = await versionOf(context, form);
    await makeCurrentVersion(db(), version);
    return backToRender({
      type: "success",
      title: `Version ${version.version} is current again`,
      description: "The recipient's link plays it from now on.",
    });
  },
  async "version-delete"(context, form) {
    const version = await deleteVersion(await versionOf(context, form));
    return backToRender({
      type: "success",
      title: `Version ${version.version} is deleted`,
      description: "Its render stays in the list of renders: you can publish it again.",
    });
  },
};
