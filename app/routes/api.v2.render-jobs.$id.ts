import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { requireRenderJob } from "~/services/render/render-access.server";
import { renderJobView } from "~/services/render/render-realtime.server";

/** GET /api/v2/render-jobs/{id}: the organiser follows a render without a live connection. */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const { job, event } = await requireRenderJob(await getUser(request), params.id);
    return ok(renderJobView(job, event.uuid), { headers: { "Cache-Control": "private, no-store" } });
  },
});
