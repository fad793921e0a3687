import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser } from "~/services/accounts/current-user.server";
import { keysFromUrl } from "~/services/events/event-access.server";
import { eventViewFor, openEvent } from "~/services/events/events.server";

/** GET /api/event/{id}[?privateKey=|?viewKey=]: what this viewer may see of the event. */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const { event, viewer } = await openEvent(await getUser(request), uuidParam(params.id, "Chorus"), keysFromUrl(new URL(request.url)));
    return ok(await eventViewFor(event, viewer));
  },
});
