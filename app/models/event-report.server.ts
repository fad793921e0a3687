import { eventReports, events, users, type EventReportResolution } from "drizzle/schema";
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export async function insertEventReport(
  db: Db,
  report: { eventId: string; reporterId: string | null; reporterIp: string; reason: string },
) {
  const [row] = await db.insert(eventReports).values(report).returning();
  return row!;
}

/** Reports no one has acted on, newest first, with their Chorus and who sent them. */
export async function listOpenReports(db: Db, limit: number) {
  return db
    .select({
      id: eventReports.id,
      reason: eventReports.reason,
      createdAt: eventReports.createdAt,
      reporterEmail: users.email,
      reporterIp: eventReports.reporterIp,
      event: { id: events.id, uuid: events.uuid, eventId: events.eventId, title: events.title, takenDownAt: events.takenDownAt },
    })
    .from(eventReports)
    .innerJoin(events, eq(events.id, eventReports.eventId))
    .leftJoin(users, eq(users.id, eventReports.reporterId))
    .where(isNull(eventReports.resolvedAt))
    .orderBy(desc(eventReports.createdAt), desc(eventReports.id))
    .limit(limit);
}

/** Closes every open report of a Chorus the same way; returns how many were open. */
export async function resolveOpenReports(db: Db, eventId: string, resolution: EventReportResolution, resolvedById: string) {
  const closed = await db
    .update(eventReports)
    .set({ resolvedAt: new Date(), resolution, resolvedById })
    .where(and(eq(eventReports.eventId, eventId), isNull(eventReports.resolvedAt)))
    .returning({ id: eventReports.id });
  return closed.length;
}

/**
 * Takes a Chorus down with the reason its organiser is told, or (null) puts it back; null when it
 * already was so (of two presses at once, one changes it).
 */
export async function setEventTakenDown(db: Db, eventId: string, reason: string | null) {
  const [event] = await db
    .update(events)
    .set({ takenDownAt: reason === null ? null : new Date(), takenDownReason: reason, updatedAt: new Date() })
    .where(and(eq(events.id, eventId), reason === null ? isNotNull(events.takenDownAt) : isNull(events.takenDownAt)))
    .returning();
  return event ?? null;
}

/** Choruses taken down, the latest first. */
export async function listTakenDownEvents(db: Db, limit: number) {
  return db
    .select({
      id: events.id,
      uuid: events.uuid,
      eventId: events.eventId,
      title: events.title,
      takenDownAt: events.takenDownAt,
      takenDownReason: events.takenDownReason,
    })
    .from(events)
    .where(isNotNull(events.takenDownAt))
    .orderBy(desc(events.takenDownAt))
    .limit(limit);
}
