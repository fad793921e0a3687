import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser } from "~/services/accounts/current-user.server";
import { requireManagedRsvp } from "~/services/events/event-records.server";
import { changeInvitee, parseInvitee } from "~/services/invitations/invitations.server";

/** PUT /api/v2/rsvps/{id}: the organiser corrects an invitee's name, addresses or channels. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async PUT({ request, params }) {
    const { rsvp } = await requireManagedRsvp(await getUser(request), uuidParam(params.id, "invitee"));
    const body = await readBody(request);
    const merged = {
      name: rsvp.name,
      email: rsvp.email ?? undefined,
      phone: rsvp.phone ?? undefined,
      viaEmail: rsvp.viaEmail,
      viaSms: rsvp.viaSms,
      ...body,
    };
    const updated = await changeInvitee(rsvp, parseInvitee(merged));
    return ok({
      id: updated.id,
      name: updated.name,
      email: updated.email,
      phone: updated.phone,
      viaEmail: updated.viaEmail,
      viaSms: updated.viaSms,
      status: updated.status,
    });
  },
});
