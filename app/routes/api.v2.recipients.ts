import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser } from "~/services/accounts/current-user.server";
import { requireManager } from "~/services/events/events.server";
import { addRecipient } from "~/services/events/recipients.server";

/** POST /api/v2/recipients {eventId, firstName, lastName?, email?, phone?} — organiser only. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const body = await readBody(request);
    const { event } = await requireManager(
      await getUser(request),
      uuidParam(typeof body.eventId === "string" ? body.eventId : undefined, "Chorus"),
    );
    return ok(await addRecipient(event, body), { status: 201 });
  },
});
