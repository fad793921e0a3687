import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser } from "~/services/accounts/current-user.server";
import { requireManager } from "~/services/events/events.server";
import { addInvitee, parseInvitee } from "~/services/invitations/invitations.server";

/** POST /api/v2/rsvps {eventId, name, email?, phone?, viaEmail?, viaSms?, invite?} — organiser only. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const body = await readBody(request);
    const { event } = await requireManager(
      await getUser(request),
      uuidParam(typeof body.eventId === "string" ? body.eventId : undefined, "Chorus"),
    );
    const { eventId: _eventId, invite, ...fields } = body;
    const rsvp = await addInvitee(event, parseInvitee(fields), { invite: invite === true || invite === "true" || invite === "on" });
    return ok(
      {
        id: rsvp.id,
        name: rsvp.name,
        email: rsvp.email,
        phone: rsvp.phone,
        viaEmail: rsvp.viaEmail,
        viaSms: rsvp.viaSms,
        status: rsvp.status,
      },
      { status: 201 },
    );
  },
});
