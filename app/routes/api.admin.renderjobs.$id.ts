import type { ActionFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { apiResource, ok } from "~/lib/http.server";
import { findEventById } from "~/models/event.server";
import { getUser } from "~/services/accounts/current-user.server";
import { requireAdminRenderJob } from "~/services/render/render-access.server";
import { cancelRender } from "~/services/render/render-jobs.server";
import { renderJobView } from "~/services/render/render-realtime.server";

const uuidOf = async (eventId: string) => (await findEventById(db(), eventId, { withDeleted: true }))?.uuid ?? "";

/** GET, DELETE /api/admin/renderjobs/{id}: staff look at a render or stop it. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async GET({ request, params }) {
    const { job } = await requireAdminRenderJob(await getUser(request), params.id);
    return ok(renderJobView(job, await uuidOf(job.eventId)));
  },
  async DELETE({ request, params }) {
    const { job } = await requireAdminRenderJob(await getUser(request), params.id);
    const cancelled = await cancelRender(job);
    return ok(renderJobView(cancelled, await uuidOf(job.eventId)));
  },
});
