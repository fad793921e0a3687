import { and, asc, gt, isNull, lte, or } from "drizzle-orm";
import { announcements } from "../../drizzle/schema/index";
import type { Db } from "~/lib/db.server";

export async function listActiveAnnouncements(db: Db, now = new Date()) {
  return db
    .select({ type: announcements.type, message: announcements.message })
    .from(announcements)
    .where(
      and(
        or(isNull(announcements.startsAt), lte(announcements.startsAt, now)),
        or(isNull(announcements.endsAt), gt(announcements.endsAt, now)),
      ),
    )
    .orderBy(asc(announcements.createdAt));
}

export async function insertAnnouncement(db: Db, values: { type: string; message: string; startsAt?: Date; endsAt?: Date }) {
  const [row] = await db.insert(announcements).values(values).returning();
  return row!;
}
