import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { media, type Media } from "../../drizzle/schema/index";
import type { Db } from "~/lib/db.server";

export type NewMedia = Pick<Media, "eventId" | "purpose" | "originalKey" | "originalName" | "mimeType" | "sizeBytes"> &
  Partial<Pick<Media, "contributorName" | "caption" | "uploaderId" | "rsvpId" | "uploadTokenHash" | "uploadId" | "kind" | "duplicatedFrom">>;

/** Inserts a media record at the end of the event's order. An upload id already recorded returns that record. */
export async function insertMedia(db: Db, values: NewMedia) {
  const [row] = await db
    .insert(media)
    .values({
      ...values,
      position: sql`(select coalesce(max(${media.position}) + 1, 0) from ${media} where ${media.eventId} = ${values.eventId})`,
    })
    .onConflictDoNothing({ target: media.uploadId })
    .returning();
  if (row) return row;
  return (await findMediaByUploadId(db, values.uploadId!))!;
}

export async function findMediaById(db: Db, id: string) {
  const [row] = await db.select().from(media).where(eq(media.id, id)).limit(1);
  return row ?? null;
}

export async function findMediaByUploadId(db: Db, uploadId: string) {
  const [row] = await db.select().from(media).where(eq(media.uploadId, uploadId)).limit(1);
  return row ?? null;
}

export async function listMediaOfEvent(db: Db, eventId: string, options: { withArchived?: boolean; purpose?: Media["purpose"] } = {}) {
  return db
    .select()
    .from(media)
    .where(
      and(
        eq(media.eventId, eventId),
        options.withArchived ? undefined : isNull(media.archivedAt),
        options.purpose ? eq(media.purpose, options.purpose) : undefined,
      ),
    )
    .orderBy(asc(media.position), asc(media.createdAt));
}

export type MediaChanges = Partial<Omit<Media, "id" | "mediaUuid" | "eventId" | "createdAt">>;

export async function updateMedia(db: Db, id: string, changes: MediaChanges) {
  const [row] = await db
    .update(media)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(media.id, id))
    .returning();
  return row ?? null;
}

/** Bytes and files an event already holds, for its quota. */
export async function eventUsage(db: Db, eventId: string) {
  const [row] = await db
    .select({ bytes: sql<number>`coalesce(sum(${media.sizeBytes}), 0)::bigint`, files: sql<number>`count(*)::int` })
    .from(media)
    .where(eq(media.eventId, eventId));
  return { bytes: Number(row?.bytes ?? 0), files: Number(row?.files ?? 0) };
}

export async function findMediaByUuid(db: Db, mediaUuid: string) {
  const [row] = await db.select().from(media).where(eq(media.mediaUuid, mediaUuid)).limit(1);
  return row ?? null;
}
