import type { ActionFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { apiResource, notFound, ok, parseBody } from "~/lib/http.server";
import { findEventById } from "~/models/event.server";
import { requireApiAdmin } from "~/services/accounts/current-user.server";
import { renderRequestInput } from "~/services/render/render-access.server";
import { startRender } from "~/services/render/render-jobs.server";
import { renderJobView } from "~/services/render/render-realtime.server";

/** POST /api/admin/renderjobs `{eventId, resolution?, publish?}`: staff start a render of an event as arranged. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const admin = await requireApiAdmin(request);
    const input = await parseBody(request, renderRequestInput);
    const event = await findEventById(db(), input.eventId);
    if (!event) throw notFound("There is no Chorus with this id.");
    const { job, created } = await startRender(event, {
      requestedBy: admin,
      publishWhenDone: input.publish ?? false,
      resolution: input.resolution,
    });
    return ok(renderJobView(job, event.uuid), { status: created ? 201 : 200 });
  },
});
