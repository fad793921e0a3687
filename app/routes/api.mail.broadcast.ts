import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { requireManager } from "~/services/events/events.server";
import { queueBroadcast } from "~/services/invitations/broadcast.server";

const input = z.object({
  eventId: z.uuid("Give the Chorus id."),
  message: z.string({ error: "Write a message." }).trim().min(1, "Write a message.").max(5000, "Keep it under 5,000 characters."),
});

/** POST /api/mail/broadcast {eventId, message}: one e-mail to every invitee. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const { eventId, message } = await parseBody(request, input);
    const { event } = await requireManager(await getUser(request), eventId);
    return ok({ recipients: await queueBroadcast(event, message) }, { status: 202 });
  },
});
