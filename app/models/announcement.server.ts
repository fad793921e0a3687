import { announcements } from "drizzle/schema";
import { and, asc, gt, isNull, lte, or } from "drizzle-orm";
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
