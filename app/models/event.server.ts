import { events, recipients, rsvps, users, type Event } from "drizzle/schema";
import { and, asc, desc, eq, ilike, inArray, isNull, or, sql } from "drizzle-orm";
import { isUuid } from "~/domain/uuid";
import type { Db } from "~/lib/db.server";
import { newEventCode, newEventKey } from "~/lib/event-keys.server";
import { reusedQuery } from "~/lib/reused-query.server";

export type EventChanges = Partial<
  Pick<
    Event,
    | "occasion"
    | "occasionOther"
    | "guestbook"
    | "status"
    | "deadline"
    | "deliveryAt"
    | "timeZone"
    | "title"
    | "message"
    | "prompts"
    | "thankYouMessage"
    | "contributorsNotified"
    | "viaEmail"
    | "viaSms"
    | "openedAt"
    | "deliveredAt"
  >
>;

export async function insertEvent(
  db: Db,
  input: Pick<Event, "creatorId" | "occasion" | "guestbook" | "deadline" | "timeZone" | "title" | "message" | "prompts"> & {
    occasionOther: string | null;
    analyticsClientId?: string | null;
    includedWithMembershipAt?: Date | null;
    recipients: { firstName: string; lastName: string }[];
  },
) {
  const { recipients: people, ...fields } = input;
  const [event] = await db
    .insert(events)
    .values({ ...fields, eventId: newEventCode(), privateKey: newEventKey(), viewKey: newEventKey() })
    .returning();
  await db.insert(recipients).values(people.map((p, position) => ({ ...p, eventId: event!.id, position })));
  return event!;
}

/** Live (not deleted) events only, unless asked. */
export async function findEventById(db: Db, id: string, options: { withDeleted?: boolean } = {}) {
  const [event] = await db
    .select()
    .from(events)
    .where(options.withDeleted ? eq(events.id, id) : and(eq(events.id, id), isNull(events.deletedAt)))
    .limit(1);
  return event ?? null;
}

// The event page reads these on every visit: their SQL is built once (reused-query.server.ts).
const eventByUuid = reusedQuery((db) =>
  db
    .select()
    .from(events)
    .where(and(eq(events.uuid, sql.placeholder("uuid")), isNull(events.deletedAt)))
    .limit(1)
    .prepare("event_by_uuid"),
);
const eventByUuidWithDeleted = reusedQuery((db) =>
  db
    .select()
    .from(events)
    .where(eq(events.uuid, sql.placeholder("uuid")))
    .limit(1)
    .prepare("event_by_uuid_with_deleted"),
);
const recipientsOfEvent = reusedQuery((db) =>
  db
    .select()
    .from(recipients)
    .where(eq(recipients.eventId, sql.placeholder("eventId")))
    .orderBy(asc(recipients.position), asc(recipients.createdAt))
    .prepare("recipients_of_event"),
);

export async function findEventByUuid(db: Db, uuid: string, options: { withDeleted?: boolean } = {}) {
  const [event] = await (options.withDeleted ? eventByUuidWithDeleted : eventByUuid)(db).execute({ uuid });
  return event ?? null;
}

export async function updateEvent(db: Db, id: string, changes: EventChanges) {
  const [event] = await db
    .update(events)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(events.id, id))
    .returning();
  return event ?? null;
}

/**
 * Records that invitations went out by e-mail and/or by text. Only a channel used is written, and
 * only ever to true, so invitation jobs running side by side each add theirs instead of writing back
 * the other channel as they read it.
 */
export async function markEventInvitedBy(db: Db, id: string, channels: { email: boolean; sms: boolean }) {
  if (!channels.email && !channels.sms) return;
  await db
    .update(events)
    .set({ ...(channels.email ? { viaEmail: true } : {}), ...(channels.sms ? { viaSms: true } : {}), updatedAt: new Date() })
    .where(eq(events.id, id));
}

export async function setEventDeleted(db: Db, id: string, deleted: boolean) {
  const [event] = await db
    .update(events)
    .set({ deletedAt: deleted ? new Date() : null, updatedAt: new Date() })
    .where(eq(events.id, id))
    .returning();
  return event ?? null;
}

/** Whether the Chorus is paid for: only payments, free checkouts and refunds change it. */
export async function setEventPaid(db: Db, id: string, paid: boolean) {
  const [event] = await db.update(events).set({ paid, updatedAt: new Date() }).where(eq(events.id, id)).returning();
  return event ?? null;
}

/** The Chorus is covered by its organiser's membership for good (docs/decisions/047); the first moment stays. */
export async function markIncludedWithMembership(db: Db, id: string, at: Date) {
  await db
    .update(events)
    .set({ includedWithMembershipAt: sql`coalesce(${events.includedWithMembershipAt}, ${at.toISOString()}::timestamptz)` })
    .where(eq(events.id, id));
}

/** New keys: links shared before stop working. */
export async function rotateEventKeys(db: Db, id: string, which: "privateKey" | "viewKey") {
  const [event] = await db
    .update(events)
    .set({ [which]: newEventKey(), updatedAt: new Date() })
    .where(eq(events.id, id))
    .returning();
  return event ?? null;
}

export async function listRecipients(db: Db, eventId: string) {
  return recipientsOfEvent(db).execute({ eventId });
}

/**
 * The names of everyone who took part, as the recipient's page lists them: invitees who contributed
 * (in the order they were invited), then the contributions that are ready and shown (in the order of
 * the Chorus). One read of names only, where reading both tables whole took two and every column.
 */
export async function listContributorNames(db: Db, eventId: string): Promise<string[]> {
  const rows = await db.execute<{ name: string }>(sql`
    select name from (
      select r.name, 0 as part, 0 as position, r.created_at from rsvps r
        where r.event_id = ${eventId} and r.status = 'contributed'
      union all
      select m.contributor_name, 1, m.position, m.created_at from media m
        where m.event_id = ${eventId} and m.purpose = 'contribution' and m.archived_at is null and not m.hidden and m.status = 'ready'
    ) as taking_part
    order by part, position, created_at`);
  return rows.map((row) => row.name);
}

export async function listRecipientsOf(db: Db, eventIds: string[]) {
  if (!eventIds.length) return [];
  return db.select().from(recipients).where(inArray(recipients.eventId, eventIds)).orderBy(asc(recipients.position));
}

// Written out with table names: inside a subquery Drizzle leaves columns unqualified, and
// "id" would then mean the rsvp's own id.
// Contributions are what arrived: live photos and clips, and guestbook messages.
const contributionCount = sql<number>`((select count(*) from media m where m.event_id = "events"."id" and m.purpose = 'contribution' and m.archived_at is null)
  + (select count(*) from guestbook_entries g where g.event_id = "events"."id" and not g.hidden))::int`;
const inviteeCount = sql<number>`(select count(*)::int from rsvps r where r.event_id = "events"."id")`;

/** The organiser's events, newest first, with how many people were invited and contributed. */
export async function listEventsOfCreator(db: Db, creatorId: string, options: { withDeleted?: boolean } = {}) {
  return db
    .select({ event: events, contributions: contributionCount, invitees: inviteeCount })
    .from(events)
    .where(options.withDeleted ? eq(events.creatorId, creatorId) : and(eq(events.creatorId, creatorId), isNull(events.deletedAt)))
    .orderBy(desc(events.createdAt));
}

/** Events someone was invited to or contributed to, by their account or their e-mail. */
export async function listEventsContributedBy(db: Db, user: { id: string; email: string }) {
  return db
    .selectDistinctOn([events.id], { event: events, rsvpStatus: rsvps.status, contributions: contributionCount })
    .from(rsvps)
    .innerJoin(events, eq(events.id, rsvps.eventId))
    .where(
      and(
        isNull(events.deletedAt),
        sql`(${rsvps.userId} = ${user.id} or lower(${rsvps.email}) = ${user.email.toLowerCase()})`,
        sql`${events.creatorId} <> ${user.id}`,
      ),
    )
    .orderBy(events.id);
}

export async function findRecipientById(db: Db, id: string) {
  const [row] = await db.select().from(recipients).where(eq(recipients.id, id)).limit(1);
  return row ?? null;
}

type RecipientFields = { firstName: string; lastName: string; email: string | null; phone: string | null };

export async function insertRecipient(db: Db, eventId: string, fields: RecipientFields) {
  const [{ next }] = (await db
    .select({ next: sql<number>`coalesce(max(${recipients.position}) + 1, 0)::int` })
    .from(recipients)
    .where(eq(recipients.eventId, eventId))) as [{ next: number }];
  const [row] = await db
    .insert(recipients)
    .values({ ...fields, eventId, position: next })
    .returning();
  return row!;
}

export async function updateRecipient(db: Db, id: string, fields: Partial<RecipientFields>) {
  const [row] = await db.update(recipients).set(fields).where(eq(recipients.id, id)).returning();
  return row ?? null;
}

export async function deleteRecipient(db: Db, id: string) {
  await db.delete(recipients).where(eq(recipients.id, id));
}

/** The recipient's first visit: kept once, even when two requests race. Returns the moment kept. */
export async function markEventOpened(db: Db, id: string) {
  await db
    .update(events)
    .set({ openedAt: new Date() })
    .where(and(eq(events.id, id), isNull(events.openedAt)));
  const [row] = await db.select({ openedAt: events.openedAt }).from(events).where(eq(events.id, id));
  return row?.openedAt ?? null;
}

export async function findEventsByIds(db: Db, ids: string[]) {
  if (!ids.length) return [];
  return db.select().from(events).where(inArray(events.id, ids));
}

/**
 * Choruses for staff, newest first, deleted ones too, with their organiser's e-mail. `search`
 * matches part of the title, the short event id exactly, or the Chorus's uuid or id exactly.
 */
export async function searchEventsForStaff(db: Db, options: { search: string | null; limit: number; offset: number }) {
  const search = options.search;
  const where = search
    ? or(
        ilike(events.title, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
        eq(sql`lower(${events.eventId})`, search.toLowerCase()),
        ...(isUuid(search) ? [eq(events.uuid, search.toLowerCase()), eq(events.id, search.toLowerCase())] : []),
      )
    : undefined;
  return db
    .select({ event: events, organiserEmail: users.email })
    .from(events)
    .innerJoin(users, eq(users.id, events.creatorId))
    .where(where)
    .orderBy(desc(events.createdAt), desc(events.id))
    .limit(options.limit)
    .offset(options.offset);
}
