import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { apiResource, ok } from "~/lib/http.server";
import { listNotificationsOf } from "~/models/notification.server";
import { requireApiUser } from "~/services/accounts/current-user.server";
import { toNotificationPayload } from "~/services/events/notifications.server";

export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request }) {
    const user = await requireApiUser(request);
    return ok((await listNotificationsOf(db(), user.id)).map(toNotificationPayload));
  },
});
