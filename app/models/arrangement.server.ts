import { eventArrangements, type EventArrangement } from "drizzle/schema";
import { eq, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export type ArrangementChanges = Partial<Omit<EventArrangement, "eventId" | "updatedAt">>;

/** The event's montage choices; an event nobody has arranged yet gets the defaults. */
export async function findArrangement(db: Db, eventId: string): Promise<EventArrangement> {
  const [row] = await db.select().from(eventArrangements).where(eq(eventArrangements.eventId, eventId)).limit(1);
  return (
    row ?? {
      eventId,
      themeId: null,
      trackId: null,
      musicStartSeconds: 0,
      musicFadeOutSeconds: 3,
      musicVolume: 0.8,
      resolution: "1080p",
      updatedAt: new Date(0),
    }
  );
}

/** Whether the organiser has saved any montage choice for the event yet. */
export async function arrangementSaved(db: Db, eventId: string) {
  const [row] = await db
    .select({ eventId: eventArrangements.eventId })
    .from(eventArrangements)
    .where(eq(eventArrangements.eventId, eventId))
    .limit(1);
  return !!row;
}

/** Saves some of the choices, creating the row on first use. */
export async function updateArrangement(db: Db, eventId: string, changes: ArrangementChanges) {
  const [row] = await db
    .insert(eventArrangements)
    .values({ eventId, ...changes })
    .onConflictDoUpdate({ target: eventArrangements.eventId, set: { ...changes, updatedAt: sql`now()` } })
    .returning();
  return row!;
}

/** The events whose montage uses the theme. */
export async function listEventIdsWithTheme(db: Db, themeId: string) {
  const rows = await db
    .select({ eventId: eventArrangements.eventId })
    .from(eventArrangements)
    .where(eq(eventArrangements.themeId, themeId));
  return rows.map((row) => row.eventId);
}
