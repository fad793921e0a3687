import { guestbookEntries, type GuestbookEntry } from "drizzle/schema";
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";
import { reusedQuery } from "~/lib/reused-query.server";

export async function insertGuestbookEntry(db: Db, entry: Pick<GuestbookEntry, "eventId" | "name" | "message" | "rsvpId" | "uploaderId">) {
  const [row] = await db.insert(guestbookEntries).values(entry).returning();
  return row!;
}

// Read on every visit of a recipient's page: its SQL is built once (reused-query.server.ts).
const entriesOfEvent = reusedQuery((db) =>
  db
    .select()
    .from(guestbookEntries)
    .where(eq(guestbookEntries.eventId, sql.placeholder("eventId")))
    .orderBy(asc(guestbookEntries.createdAt))
    .prepare("guestbook_entries_of_event"),
);

export async function listGuestbookEntries(db: Db, eventId: string) {
  return entriesOfEvent(db).execute({ eventId });
}
