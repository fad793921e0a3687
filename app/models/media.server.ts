import { media, mediaVersions, type Media, type MediaVersion } from "drizzle/schema";
import { and, asc, desc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export type NewMedia = Pick<Media, "eventId" | "purpose" | "originalKey" | "originalName" | "mimeType" | "sizeBytes"> &
  Partial<
    Pick<Media, "contributorName" | "caption" | "uploaderId" | "rsvpId" | "uploadTokenHash" | "uploadId" | "kind" | "duplicatedFrom">
  >;

/** Inserts a media record at the end of the event's order. An upload id already recorded returns that record. */
export async function insertMedia(db: Db, values: NewMedia) {
  const [row] = await db
    .insert(media)
    .values({
      ...values,
      // After the last live item: archived ones have left the order.
      position: sql`(select coalesce(max(m.position) + 1, 0) from media m where m.event_id = ${values.eventId} and m.archived_at is null)`,
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

/** Which of these upload ids have their media record. */
export async function listRecordedUploadIds(db: Db, uploadIds: readonly string[]) {
  if (!uploadIds.length) return new Set<string>();
  const rows = await db
    .select({ uploadId: media.uploadId })
    .from(media)
    .where(inArray(media.uploadId, [...uploadIds]));
  return new Set(rows.map((row) => row.uploadId!));
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

/** How many of the event's live contributions are still to be processed (uploaded or being processed). */
export async function countContributionsInProcessing(db: Db, eventId: string) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(media)
    .where(
      and(
        eq(media.eventId, eventId),
        eq(media.purpose, "contribution"),
        isNull(media.archivedAt),
        inArray(media.status, ["uploaded", "processing"]),
      ),
    );
  return row?.count ?? 0;
}

export type MediaChanges = Partial<Omit<Media, "id" | "mediaUuid" | "eventId" | "createdAt">>;

/**
 * Gives a clip the trim processing found, in one conditional update: not when the organiser has
 * set one (trimChosen), also if they did so while it was being processed. The updated row, or null.
 */
export async function applyDefaultTrim(db: Db, id: string, trim: Pick<Media, "trimStart" | "trimEnd">) {
  const [row] = await db
    .update(media)
    .set({ ...trim, updatedAt: new Date() })
    .where(and(eq(media.id, id), eq(media.trimChosen, false)))
    .returning();
  return row ?? null;
}

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

/** A whole media row (a duplicate shares its source's files): position follows as for insertMedia. */
export async function insertMediaCopy(
  db: Db,
  values: Omit<typeof media.$inferInsert, "id" | "mediaUuid" | "position" | "createdAt" | "updatedAt">,
) {
  const [row] = await db
    .insert(media)
    .values({
      ...values,
      // After the last live item: archived ones have left the order.
      position: sql`(select coalesce(max(m.position) + 1, 0) from media m where m.event_id = ${values.eventId} and m.archived_at is null)`,
    })
    .returning();
  return row!;
}

/**
 * Serialises changes to one event's montage order until the transaction ends. An advisory
 * lock rather than row locks: uploads keep arriving meanwhile, and no two orders interleave.
 */
export async function lockMontageOrder(tx: Db, eventId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`media-order:${eventId}`}, 0))`);
}

/** The event's contributions still in the montage, in order. */
export async function listMontageOrder(tx: Db, eventId: string) {
  return tx
    .select({ id: media.id, position: media.position })
    .from(media)
    .where(and(eq(media.eventId, eventId), isNull(media.archivedAt), eq(media.purpose, "contribution")))
    .orderBy(asc(media.position), asc(media.createdAt), asc(media.id));
}

export async function setMediaPosition(tx: Db, id: string, position: number) {
  const [row] = await tx.update(media).set({ position, updatedAt: new Date() }).where(eq(media.id, id)).returning();
  return row!;
}

/** Gives an account every item its upload token sent to the event that no other account holds. */
export async function claimMediaOfToken(db: Db, eventId: string, uploadTokenHash: string, userId: string) {
  return db
    .update(media)
    .set({ uploaderId: userId, updatedAt: new Date() })
    .where(
      and(
        eq(media.eventId, eventId),
        eq(media.uploadTokenHash, uploadTokenHash),
        or(isNull(media.uploaderId), eq(media.uploaderId, userId)),
      ),
    )
    .returning();
}

// ——— Versions of a photo (an upscale, an edit) ———

export type NewMediaVersion = Pick<MediaVersion, "mediaId" | "kind" | "status" | "key"> &
  Partial<Pick<MediaVersion, "id" | "edits" | "width" | "height">>;

export async function insertMediaVersion(db: Db, values: NewMediaVersion) {
  const [row] = await db.insert(mediaVersions).values(values).returning();
  return row!;
}

/** A version, only if it belongs to that media item. */
export async function findMediaVersion(db: Db, mediaId: string, id: string) {
  const [row] = await db
    .select()
    .from(mediaVersions)
    .where(and(eq(mediaVersions.id, id), eq(mediaVersions.mediaId, mediaId)))
    .limit(1);
  return row ?? null;
}

/** The newest version of a kind still awaiting review, if any. */
export async function findPendingVersion(db: Db, mediaId: string, kind: MediaVersion["kind"]) {
  const [row] = await db
    .select()
    .from(mediaVersions)
    .where(and(eq(mediaVersions.mediaId, mediaId), eq(mediaVersions.kind, kind), eq(mediaVersions.status, "pending_review")))
    .orderBy(desc(mediaVersions.createdAt))
    .limit(1);
  return row ?? null;
}

export async function updateMediaVersion(db: Db, id: string, changes: Partial<Pick<MediaVersion, "status" | "key" | "width" | "height">>) {
  const [row] = await db.update(mediaVersions).set(changes).where(eq(mediaVersions.id, id)).returning();
  return row ?? null;
}

/** The version in use until now steps aside (kept, so it can be looked at again). */
export async function markActiveVersionsReplaced(db: Db, mediaId: string, exceptId?: string) {
  await db
    .update(mediaVersions)
    .set({ status: "replaced" })
    .where(
      and(eq(mediaVersions.mediaId, mediaId), eq(mediaVersions.status, "active"), exceptId ? ne(mediaVersions.id, exceptId) : undefined),
    );
}
