import { notifications, users } from "drizzle/schema";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export interface NewNotification {
  userId: string;
  eventId?: string | null;
  kind: string;
  title: string;
  body?: string;
  url?: string | null;
}

export async function insertNotifications(db: Db, rows: NewNotification[]) {
  if (!rows.length) return [];
  return db.insert(notifications).values(rows).returning();
}

export async function listNotificationsOf(db: Db, userId: string, limit = 50) {
  return db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt)).limit(limit);
}

/**
 * Marks one of the user's own notifications; another user's id changes nothing. Each moment is set
 * once: marking again, or reading what was already seen, keeps the first time it happened.
 */
export async function markNotification(db: Db, userId: string, id: string, field: "seenAt" | "readAt") {
  const once = (column: typeof notifications.seenAt | typeof notifications.readAt) => sql`coalesce(${column}, now())`;
  // Read implies seen (spec §4: notifications are marked seen, then read).
  const changes =
    field === "readAt"
      ? { readAt: once(notifications.readAt), seenAt: once(notifications.seenAt) }
      : { seenAt: once(notifications.seenAt) };
  const [row] = await db
    .update(notifications)
    .set(changes)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning();
  return row ?? null;
}

export async function listStaffIds(db: Db) {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.role, ["admin", "editor"]));
  return rows.map((r) => r.id);
}
