import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { requireManager } from "~/services/events/events.server";
import { inviteAllPending } from "~/services/invitations/invitations.server";

const input = z.object({ eventId: z.uuid("Give the Chorus id.") });

/** POST /api/mail/contributors {eventId}: invite everyone not yet invited; marks contributorsNotified. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const { eventId } = await parseBody(request, input);
    const { event } = await requireManager(await getUser(request), eventId);
    return ok({ queued: await inviteAllPending(event) }, { status: 202 });
  },
});
