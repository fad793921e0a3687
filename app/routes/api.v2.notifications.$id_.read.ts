import type { ActionFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { apiResource, notFound, ok } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { markNotification } from "~/models/notification.server";
import { requireApiUser } from "~/services/accounts/current-user.server";
import { toNotificationPayload } from "~/services/events/notifications.server";

/** POST /api/v2/notifications/{id}/read — only the caller's own notifications. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    const user = await requireApiUser(request);
    const row = await markNotification(db(), user.id, uuidParam(params.id, "notification"), "readAt");
    if (!row) throw notFound("There is no notification with this id.");
    return ok(toNotificationPayload(row));
  },
});
