import { tracks, type Track } from "drizzle/schema";
import { and, asc, count, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

// Spec §3 Track. Built-in tracks have a slug and no owner and are offered to everyone; an
// organiser's own tracks are theirs alone. Archived own tracks leave the library.

/** Built-ins and the user's own live tracks: built-ins first, then the user's oldest first. */
export async function listTracksVisibleTo(db: Db, userId: string) {
  return db
    .select()
    .from(tracks)
    .where(or(isNotNull(tracks.slug), and(eq(tracks.ownerId, userId), isNull(tracks.archivedAt))))
    .orderBy(sql`${tracks.ownerId} is not null`, asc(tracks.createdAt));
}

/** A track the user may see: a built-in, or one of their own that is not archived. */
export async function findTrackVisibleTo(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(tracks)
    .where(and(eq(tracks.id, id), or(isNotNull(tracks.slug), and(eq(tracks.ownerId, userId), isNull(tracks.archivedAt)))))
    .limit(1);
  return row ?? null;
}

/** Any track by id, for jobs and for events that chose it before it was archived. */
export async function findTrackById(db: Db, id: string) {
  const [row] = await db.select().from(tracks).where(eq(tracks.id, id)).limit(1);
  return row ?? null;
}

export async function findTrackBySlug(db: Db, slug: string) {
  const [row] = await db.select().from(tracks).where(eq(tracks.slug, slug)).limit(1);
  return row ?? null;
}

/** How many live tracks of their own a user keeps, for the quota. */
export async function countOwnTracks(db: Db, ownerId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(tracks)
    .where(and(eq(tracks.ownerId, ownerId), isNull(tracks.archivedAt)));
  return row?.n ?? 0;
}

export type NewTrack = Pick<Track, "title" | "originalName" | "sizeBytes"> &
  Partial<Pick<Track, "id" | "ownerId" | "slug" | "artist" | "licence" | "originalKey">>;

export async function insertTrack(db: Db, values: NewTrack) {
  const [row] = await db.insert(tracks).values(values).returning();
  return row!;
}

/** Inserts a built-in by its slug, or refreshes its catalogue fields; the processing fields are left alone. */
export async function upsertBuiltInTrack(
  db: Db,
  values: Pick<Track, "title" | "artist" | "licence" | "originalName" | "isPremium"> & { slug: string },
) {
  const [row] = await db
    .insert(tracks)
    .values(values)
    .onConflictDoUpdate({
      target: tracks.slug,
      set: {
        title: values.title,
        artist: values.artist,
        licence: values.licence,
        originalName: values.originalName,
        isPremium: values.isPremium,
      },
    })
    .returning();
  return row!;
}

export type TrackChanges = Partial<Omit<Track, "id" | "slug" | "ownerId" | "createdAt">>;

export async function updateTrack(db: Db, id: string, changes: TrackChanges) {
  const [row] = await db
    .update(tracks)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(tracks.id, id))
    .returning();
  return row ?? null;
}

/** Archives one of the owner's tracks; null when it is not theirs (or already archived). */
export async function archiveOwnTrack(db: Db, ownerId: string, id: string) {
  const [row] = await db
    .update(tracks)
    .set({ archivedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(tracks.id, id), eq(tracks.ownerId, ownerId), isNull(tracks.archivedAt)))
    .returning();
  return row ?? null;
}
