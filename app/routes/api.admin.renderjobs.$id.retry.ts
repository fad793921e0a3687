import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { requireAdminRenderJob } from "~/services/render/render-access.server";
import { renderJobView } from "~/services/render/render-realtime.server";
import { retryRender } from "~/services/staff/render-retry.server";

/** POST /api/admin/renderjobs/{id}/retry: an administrator tries a failed or cancelled render again, with the same choices. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    const { job, admin } = await requireAdminRenderJob(await getUser(request), params.id);
    const { job: retry, created, eventUuid } = await retryRender(admin, job);
    return ok(renderJobView(retry, eventUuid), { status: created ? 201 : 200 });
  },
});
