import crypto from "node:crypto";
import { rsvps, type Rsvp } from "drizzle/schema";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";
import { inviteTokenFor } from "~/lib/invite-token.server";
import { reusedQuery } from "~/lib/reused-query.server";
import { hashToken } from "~/lib/tokens.server";

export async function insertRsvp(
  db: Db,
  input: Pick<Rsvp, "eventId" | "name" | "email" | "phone" | "viaEmail" | "viaSms"> & { userId?: string | null },
) {
  const id = crypto.randomUUID();
  const [rsvp] = await db
    .insert(rsvps)
    .values({ ...input, id, inviteTokenHash: hashToken(inviteTokenFor(id)) })
    .returning();
  return rsvp!;
}

export async function findRsvpById(db: Db, id: string) {
  const [rsvp] = await db.select().from(rsvps).where(eq(rsvps.id, id)).limit(1);
  return rsvp ?? null;
}

export async function findRsvpByInviteToken(db: Db, eventId: string, token: string) {
  const [rsvp] = await db
    .select()
    .from(rsvps)
    .where(and(eq(rsvps.eventId, eventId), eq(rsvps.inviteTokenHash, hashToken(token))))
    .limit(1);
  return rsvp ?? null;
}

export async function findRsvpOfUser(db: Db, eventId: string, user: { id: string; email: string }) {
  const [rsvp] = await db
    .select()
    .from(rsvps)
    .where(and(eq(rsvps.eventId, eventId), sql`(${rsvps.userId} = ${user.id} or lower(${rsvps.email}) = ${user.email.toLowerCase()})`))
    .limit(1);
  return rsvp ?? null;
}

export async function findRsvpByAddress(db: Db, eventId: string, address: { email?: string | null; phone?: string | null }) {
  const conditions = [];
  if (address.email) conditions.push(sql`lower(${rsvps.email}) = ${address.email.toLowerCase()}`);
  if (address.phone) conditions.push(eq(rsvps.phone, address.phone));
  if (!conditions.length) return null;
  const [rsvp] = await db
    .select()
    .from(rsvps)
    .where(and(eq(rsvps.eventId, eventId), sql`(${sql.join(conditions, sql` or `)})`))
    .limit(1);
  return rsvp ?? null;
}

// Read on every visit of a recipient's page: its SQL is built once (reused-query.server.ts).
const rsvpsOfEvent = reusedQuery((db) =>
  db
    .select()
    .from(rsvps)
    .where(eq(rsvps.eventId, sql.placeholder("eventId")))
    .orderBy(asc(rsvps.createdAt))
    .prepare("rsvps_of_event"),
);

export async function listRsvps(db: Db, eventId: string) {
  return rsvpsOfEvent(db).execute({ eventId });
}

export async function listUninvitedRsvps(db: Db, eventId: string) {
  return db
    .select()
    .from(rsvps)
    .where(and(eq(rsvps.eventId, eventId), isNull(rsvps.inviteSentAt), isNull(rsvps.unsubscribedAt)))
    .orderBy(asc(rsvps.createdAt));
}

export type RsvpChanges = Partial<
  Pick<
    Rsvp,
    | "name"
    | "email"
    | "phone"
    | "viaEmail"
    | "viaSms"
    | "status"
    | "inviteSentAt"
    | "inviteOpenedAt"
    | "contributedAt"
    | "unsubscribedAt"
    | "userId"
  >
>;

export async function updateRsvp(db: Db, id: string, changes: RsvpChanges) {
  const [rsvp] = await db
    .update(rsvps)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(rsvps.id, id))
    .returning();
  return rsvp ?? null;
}

/** Invitees who may need a reminder: invited, not contributed, still subscribed, deadline within three days. */
export async function listReminderCandidates(db: Db, now: Date) {
  const rows = await db.execute<{
    rsvp_id: string;
    deadline: string | Date;
    invite_sent_at: string | Date;
    sent_keys: string[] | null;
  }>(sql`
    select r.id as rsvp_id, e.deadline, r.invite_sent_at,
      (select array_agg(d.key) from message_deliveries d where d.key like 'reminder:' || r.id || ':%' and d.status = 'sent') as sent_keys
    from rsvps r join events e on e.id = r.event_id
    where e.deleted_at is null and e.status = 'active'
      and e.deadline > ${now.toISOString()}::timestamptz
      and e.deadline <= ${new Date(now.getTime() + 3 * 24 * 60 * 60 * 1000).toISOString()}::timestamptz
      and r.status in ('invited', 'opened') and r.unsubscribed_at is null and r.invite_sent_at is not null`);
  return rows.map((row) => ({
    rsvpId: row.rsvp_id,
    deadline: new Date(row.deadline),
    invitedAt: new Date(row.invite_sent_at),
    sentWindows: (row.sent_keys ?? []).map((key) => key.split(":")[2]!),
  }));
}

/** An invitee opened their personal link: recorded once, even when two loads race. */
export async function markRsvpOpened(db: Db, id: string) {
  await db
    .update(rsvps)
    .set({
      inviteOpenedAt: new Date(),
      status: sql`case when ${rsvps.status} in ('pending', 'invited') then 'opened'::rsvp_status else ${rsvps.status} end`,
      updatedAt: new Date(),
    })
    .where(and(eq(rsvps.id, id), isNull(rsvps.inviteOpenedAt)));
}
