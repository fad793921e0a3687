import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, forbidden, ok } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser } from "~/services/accounts/current-user.server";
import { keysFromUrl } from "~/services/events/event-access.server";
import { markEventOpened, openEvent } from "~/services/events/events.server";

/** POST /api/v2/events/{id}/opened?privateKey=: the recipient opened their page (first time kept). */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    const { event, viewer } = await openEvent(await getUser(request), uuidParam(params.id, "Chorus"), keysFromUrl(new URL(request.url)));
    if (viewer.role !== "recipient") throw forbidden("Only the recipient's link can mark the Chorus opened.");
    return ok({ openedAt: (await markEventOpened(event)).toISOString() });
  },
});
