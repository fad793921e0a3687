import type { Notification } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { insertNotifications, listStaffIds, type NewNotification } from "~/models/notification.server";
import { roomOfUser, type NotificationPayload } from "~/realtime/events";
import { broadcaster } from "~/realtime/server.server";

export const toNotificationPayload = (n: Notification): NotificationPayload => ({
  id: n.id,
  kind: n.kind,
  title: n.title,
  body: n.body,
  url: n.url,
  eventId: n.eventId,
  createdAt: n.createdAt.toISOString(),
  seenAt: n.seenAt?.toISOString() ?? null,
  readAt: n.readAt?.toISOString() ?? null,
});

/** Stores notifications and pushes each to its user's `/users` room. */
export async function notify(rows: NewNotification[]) {
  const saved = await insertNotifications(db(), rows);
  const users = broadcaster()?.of("/users");
  for (const n of saved) users?.to(roomOfUser(n.userId)).emit("notification:new", toNotificationPayload(n));
  return saved;
}

export async function notifyStaff(row: Omit<NewNotification, "userId">) {
  const staff = await listStaffIds(db());
  return notify(staff.map((userId) => ({ ...row, userId })));
}
