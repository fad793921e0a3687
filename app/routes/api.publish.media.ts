import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, notFound, ok, parseBody } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { requireManager } from "~/services/events/events.server";
import { publishedVersionView } from "~/services/render/published-video.server";
import { publishInput, requireRenderJob } from "~/services/render/render-access.server";
import { startRender } from "~/services/render/render-jobs.server";
import { publishRenderJob } from "~/services/render/render-publish.server";
import { renderJobView } from "~/services/render/render-realtime.server";

/**
 * POST /api/publish/media `{eventId, renderJobId?, resolution?}`: publish a finished render, or
 * (without renderJobId) render the arrangement as it is and publish it when done (202).
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const input = await parseBody(request, publishInput);
    const { event, viewer } = await requireManager(await getUser(request), input.eventId);
    if (input.renderJobId) {
      const { job } = await requireRenderJob(await getUser(request), input.renderJobId);
      if (job.eventId !== event.id) throw notFound("There is no render job with this id for this Chorus.");
      const version = await publishRenderJob(job, viewer.user);
      return ok(publishedVersionView(version, { ...event, publishedMedia: version.id }));
    }
    const { job } = await startRender(event, { requestedBy: viewer.user, publishWhenDone: true, resolution: input.resolution });
    return ok(renderJobView(job, event.uuid), { status: 202 });
  },
});
