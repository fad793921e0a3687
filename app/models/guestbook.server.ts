import { guestbookEntries, type GuestbookEntry } from "drizzle/schema";
import { asc, eq } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export async function insertGuestbookEntry(db: Db, entry: Pick<GuestbookEntry, "eventId" | "name" | "message" | "rsvpId" | "uploaderId">) {
  const [row] = await db.insert(guestbookEntries).values(entry).returning();
  return row!;
}

export async function listGuestbookEntries(db: Db, eventId: string) {
  return db.select().from(guestbookEntries).where(eq(guestbookEntries.eventId, eventId)).orderBy(asc(guestbookEntries.createdAt));
}
