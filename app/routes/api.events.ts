import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { apiResource, ok } from "~/lib/http.server";
import { listEventsOfCreator, listRecipientsOf } from "~/models/event.server";
import { requireApiUser } from "~/services/accounts/current-user.server";
import { headlineOf } from "~/services/events/event-views.server";

/** GET /api/events: the caller's own events (owner-scoped; staff use the admin tools). */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request }) {
    const user = await requireApiUser(request);
    const rows = await listEventsOfCreator(db(), user.id);
    const recipients = await listRecipientsOf(
      db(),
      rows.map((r) => r.event.id),
    );
    return ok(
      rows.map(({ event, contributions, invitees }) => ({
        id: event.id,
        uuid: event.uuid,
        eventId: event.eventId,
        headline: headlineOf(
          event,
          recipients.filter((r) => r.eventId === event.id),
        ),
        occasion: event.occasion,
        guestbook: event.guestbook,
        status: event.status,
        deadline: event.deadline.toISOString(),
        contributions,
        invitees,
      })),
    );
  },
});
