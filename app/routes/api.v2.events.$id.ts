import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser } from "~/services/accounts/current-user.server";
import { keysFromUrl } from "~/services/events/event-access.server";
import { eventViewFor, openEvent, updateEventAs } from "~/services/events/events.server";

/** PUT /api/v2/events/{id}[?privateKey=]: protected fields are stripped, the rest checked per role. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async PUT({ request, params }) {
    const { event, viewer } = await openEvent(await getUser(request), uuidParam(params.id, "Chorus"), keysFromUrl(new URL(request.url)));
    const updated = await updateEventAs(viewer, event, await readBody(request));
    return ok((await eventViewFor(updated, viewer)).event);
  },
});
