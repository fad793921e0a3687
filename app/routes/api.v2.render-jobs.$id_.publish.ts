import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { publishedVersionView } from "~/services/render/published-video.server";
import { requireRenderJob } from "~/services/render/render-access.server";
import { publishRenderJob } from "~/services/render/render-publish.server";

/** POST /api/v2/render-jobs/{id}/publish: a finished render becomes the recipient's video. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    const { job, event, viewer } = await requireRenderJob(await getUser(request), params.id);
    const version = await publishRenderJob(job, viewer.user);
    return ok(publishedVersionView(version, { ...event, publishedMedia: version.id }));
  },
});
