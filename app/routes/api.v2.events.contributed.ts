import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { apiResource, ok } from "~/lib/http.server";
import { listEventsContributedBy, listRecipientsOf } from "~/models/event.server";
import { requireApiUser } from "~/services/accounts/current-user.server";
import { publicEventView } from "~/services/events/event-views.server";

/** GET /api/v2/events/contributed: events the caller was invited to or added to — public views only. */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request }) {
    const user = await requireApiUser(request);
    const rows = await listEventsContributedBy(db(), user);
    const recipients = await listRecipientsOf(
      db(),
      rows.map((r) => r.event.id),
    );
    return ok(
      rows.map(({ event, rsvpStatus }) => ({
        ...publicEventView(
          event,
          recipients.filter((r) => r.eventId === event.id),
        ),
        myStatus: rsvpStatus,
      })),
    );
  },
});
