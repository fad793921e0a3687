import { announcements } from "drizzle/schema";
import { and, asc, desc, eq, gt, isNull, lte, or } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

/** What is live at `now`: started (or with no start) and not yet ended (or with no end). */
export async function listActiveAnnouncements(db: Db, now = new Date()) {
  return db
    .select({ type: announcements.type, message: announcements.message, link: announcements.link })
    .from(announcements)
    .where(
      and(
        or(isNull(announcements.startsAt), lte(announcements.startsAt, now)),
        or(isNull(announcements.endsAt), gt(announcements.endsAt, now)),
      ),
    )
    .orderBy(asc(announcements.createdAt));
}

export async function insertAnnouncement(
  db: Db,
  fields: { type: string; message: string; link: string | null; startsAt: Date | null; endsAt: Date | null },
) {
  const [row] = await db.insert(announcements).values(fields).returning();
  return row!;
}

/** Every announcement, the newest first: those to come, those live and those over. */
export async function listAnnouncements(db: Db, options: { limit: number; offset: number }) {
  return db
    .select()
    .from(announcements)
    .orderBy(desc(announcements.createdAt), desc(announcements.id))
    .limit(options.limit)
    .offset(options.offset);
}

export async function findAnnouncementById(db: Db, id: string) {
  const [row] = await db.select().from(announcements).where(eq(announcements.id, id)).limit(1);
  return row ?? null;
}

/** Ends an announcement at `at`, unless it had already ended by then; null when it had. */
export async function endAnnouncement(db: Db, id: string, at: Date) {
  const [row] = await db
    .update(announcements)
    .set({ endsAt: at })
    .where(and(eq(announcements.id, id), or(isNull(announcements.endsAt), gt(announcements.endsAt, at))))
    .returning();
  return row ?? null;
}
