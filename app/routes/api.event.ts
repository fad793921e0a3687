import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody } from "~/lib/http.server";
import { getUser, requireApiUser } from "~/services/accounts/current-user.server";
import { createEvent, eventViewFor, openEvent, parseNewEvent } from "~/services/events/events.server";

/** POST /api/event: start a Chorus (the payload plus analyticsClientId, spec §7.2). */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const user = await requireApiUser(request);
    const input = parseNewEvent(await readBody(request));
    const created = await createEvent(user, input);
    const { event, viewer } = await openEvent(await getUser(request), created.id);
    return ok((await eventViewFor(event, viewer)).event, { status: 201 });
  },
});
