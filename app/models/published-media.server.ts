import { events, publishedMedia, type PublishedMedia, type VideoLadder } from "drizzle/schema";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export type NewPublishedMedia = Omit<PublishedMedia, "id" | "version" | "createdAt" | "ladder">;

/**
 * Adds a version and makes it the event's current video, in one transaction. A render job
 * publishes at most once: publishing it again answers the version it already made.
 * `withNew`: runs in the same transaction for a version just made (to queue what follows it).
 */
export async function publishVersion(db: Db, values: NewPublishedMedia, withNew?: (tx: Db, version: PublishedMedia) => Promise<unknown>) {
  return db.transaction(async (tx) => {
    // Versions of one event are numbered one after another, whoever publishes at the same moment.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`publish:${values.eventId}`}, 0))`);
    if (values.renderJobId) {
      const [existing] = await tx.select().from(publishedMedia).where(eq(publishedMedia.renderJobId, values.renderJobId)).limit(1);
      if (existing) return { version: existing, created: false };
    }
    const [{ next }] = (await tx
      .select({ next: sql<number>`coalesce(max(${publishedMedia.version}), 0) + 1` })
      .from(publishedMedia)
      .where(eq(publishedMedia.eventId, values.eventId))) as [{ next: number }];
    const [row] = await tx
      .insert(publishedMedia)
      .values({ ...values, version: Number(next) })
      .returning();
    await tx
      .update(events)
      .set({ publishedMedia: row!.id, updatedAt: sql`now()` })
      .where(eq(events.id, values.eventId));
    if (withNew) await withNew(tx, row!);
    return { version: row!, created: true };
  });
}

export async function findPublishedMedia(db: Db, id: string) {
  const [row] = await db.select().from(publishedMedia).where(eq(publishedMedia.id, id)).limit(1);
  return row ?? null;
}

export async function listPublishedVersions(db: Db, eventId: string) {
  return db.select().from(publishedMedia).where(eq(publishedMedia.eventId, eventId)).orderBy(desc(publishedMedia.version));
}

/** Points the event back at one of its own versions. */
export async function makeCurrentVersion(db: Db, version: PublishedMedia) {
  const [row] = await db
    .update(events)
    .set({ publishedMedia: version.id, updatedAt: sql`now()` })
    .where(and(eq(events.id, version.eventId)))
    .returning();
  return row ?? null;
}

/** Records a version's HLS ladder once its files are all stored. */
export async function setPublishedLadder(db: Db, id: string, ladder: VideoLadder) {
  const [row] = await db.update(publishedMedia).set({ ladder }).where(eq(publishedMedia.id, id)).returning();
  return row ?? null;
}

/**
 * Removes a version unless it is its event's current one (checked in the same statement, so a
 * version made current meanwhile stays). Null when nothing was removed.
 */
export async function deleteEarlierVersion(db: Db, id: string) {
  const [row] = await db
    .delete(publishedMedia)
    .where(
      and(
        eq(publishedMedia.id, id),
        sql`not exists (select 1 from ${events} where ${events.id} = ${publishedMedia.eventId} and ${events.publishedMedia} = ${publishedMedia.id})`,
      ),
    )
    .returning();
  return row ?? null;
}
