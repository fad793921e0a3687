import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser } from "~/services/accounts/current-user.server";
import { requireManagedRsvp } from "~/services/events/event-records.server";
import { queueInvitation } from "~/services/invitations/invitations.server";

/** POST /api/v2/rsvps/{id}/invite: (re)send this invitee their invitation. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    const { rsvp, event } = await requireManagedRsvp(await getUser(request), uuidParam(params.id, "invitee"));
    await queueInvitation(event, rsvp);
    return ok({ queued: true }, { status: 202 });
  },
});
