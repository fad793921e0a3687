import { giftContributions, gifts, type Gift, type GiftContribution } from "drizzle/schema";
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";
import { reusedQuery } from "~/lib/reused-query.server";

export type GiftChoice = Pick<Gift, "country" | "productId" | "productName" | "currency" | "minAmount" | "maxAmount" | "targetAmount">;

// Read on every visit of the event page: its SQL is built once (reused-query.server.ts).
const giftOfEvent = reusedQuery((db) =>
  db
    .select()
    .from(gifts)
    .where(eq(gifts.eventId, sql.placeholder("eventId")))
    .limit(1)
    .prepare("gift_of_event"),
);

export async function findGiftOfEvent(db: Db, eventId: string, options: { forUpdate?: boolean } = {}) {
  const [found] = options.forUpdate
    ? await db.select().from(gifts).where(eq(gifts.eventId, eventId)).limit(1).for("update")
    : await giftOfEvent(db).execute({ eventId });
  return found ?? null;
}

export async function findGiftById(db: Db, id: string, options: { forUpdate?: boolean } = {}) {
  const query = db.select().from(gifts).where(eq(gifts.id, id)).limit(1);
  const [found] = options.forUpdate ? await query.for("update") : await query;
  return found ?? null;
}

/** Turns the event's gift on, or changes its brand and target. */
export async function upsertGift(db: Db, eventId: string, choice: GiftChoice) {
  const [saved] = await db
    .insert(gifts)
    .values({ eventId, ...choice })
    .onConflictDoUpdate({ target: gifts.eventId, set: { ...choice, updatedAt: new Date() } })
    .returning();
  return saved!;
}

export async function deleteGift(db: Db, id: string) {
  await db.delete(gifts).where(eq(gifts.id, id));
}

/** The pot: what paid contributions have brought in, less what was refunded of them. */
export async function giftPot(db: Db, giftId: string) {
  const [row] = await db
    .select({
      total: sql<number>`coalesce(sum(${giftContributions.amount} - ${giftContributions.amountRefunded}), 0)::int`,
      count: sql<number>`count(*)::int`,
    })
    .from(giftContributions)
    .where(and(eq(giftContributions.giftId, giftId), eq(giftContributions.status, "paid")));
  return { total: row?.total ?? 0, count: row?.count ?? 0 };
}

/**
 * What is held out of the card's room by contributions whose payment page is still open
 * (docs/decisions/046): their sum, and when the last of those pages expires. A pending contribution
 * holds until its page's expiry webhook makes it abandoned, or at the latest an hour past the expiry
 * (a page paid in its last second whose webhook comes late keeps its room).
 */
export async function heldGiftRoom(db: Db, giftId: string) {
  const [row] = await db
    .select({
      total: sql<number>`coalesce(sum(${giftContributions.amount}), 0)::int`,
      lastFreesAt: sql<Date | null>`max(${giftContributions.holdsUntil})`.mapWith((v: string | null) => (v ? new Date(v) : null)),
    })
    .from(giftContributions)
    .where(
      and(
        eq(giftContributions.giftId, giftId),
        eq(giftContributions.status, "pending"),
        gt(giftContributions.holdsUntil, sql`now() - interval '1 hour'`),
      ),
    );
  return { total: row?.total ?? 0, lastFreesAt: row?.lastFreesAt ?? null };
}

export type NewGiftContribution = Pick<GiftContribution, "giftId" | "name" | "email" | "amount" | "currency"> &
  Partial<Pick<GiftContribution, "holdsUntil">>;

export async function insertGiftContribution(db: Db, input: NewGiftContribution) {
  const [made] = await db.insert(giftContributions).values(input).returning();
  return made!;
}

/** Its payment page is open: the session, and (when the service says) the moment it can no longer be paid. */
export async function setGiftContributionSession(db: Db, id: string, provider: string, checkoutSessionId: string, holdsUntil: Date | null) {
  await db
    .update(giftContributions)
    .set({ provider, checkoutSessionId, ...(holdsUntil ? { holdsUntil } : {}) })
    .where(eq(giftContributions.id, id));
}

/** Its payment page could not be opened: the room it held is free again. */
export async function abandonPendingGiftContribution(db: Db, id: string) {
  await db
    .update(giftContributions)
    .set({ status: "abandoned" })
    .where(and(eq(giftContributions.id, id), eq(giftContributions.status, "pending")));
}

export async function findGiftContribution(db: Db, id: string) {
  const [found] = await db.select().from(giftContributions).where(eq(giftContributions.id, id)).limit(1);
  return found ?? null;
}

export async function lockGiftContribution(db: Db, id: string) {
  const [found] = await db.select().from(giftContributions).where(eq(giftContributions.id, id)).for("update").limit(1);
  return found ?? null;
}

/** Recorded by the payment webhook: the contribution's money is in. */
export async function markGiftContributionPaid(
  db: Db,
  id: string,
  paid: { provider: string; paymentIntentId: string; checkoutSessionId: string | null; amount: number },
) {
  const [saved] = await db
    .update(giftContributions)
    .set({ ...paid, status: "paid", paidAt: new Date() })
    .where(eq(giftContributions.id, id))
    .returning();
  return saved!;
}

export async function updateGift(
  db: Db,
  id: string,
  fields: Partial<Pick<Gift, "status" | "orderId" | "claimUrl" | "amountPaidOut" | "failure">>,
) {
  const [saved] = await db
    .update(gifts)
    .set({ ...fields, updatedAt: new Date() })
    .where(eq(gifts.id, id))
    .returning();
  return saved!;
}

/** Paid contributions still holding money (not refunded in full), oldest first. */
export async function listRefundableGiftContributions(db: Db, giftId: string) {
  return db
    .select()
    .from(giftContributions)
    .where(and(eq(giftContributions.giftId, giftId), eq(giftContributions.status, "paid")))
    .orderBy(giftContributions.createdAt);
}

/**
 * Part of a paid contribution did not fit on the card: that part is taken out of the pot at once
 * (counted as refunded), and the refund job sends it back (docs/decisions/046).
 */
export async function setGiftContributionOverflow(db: Db, id: string, amountRefunded: number) {
  await db.update(giftContributions).set({ amountRefunded }).where(eq(giftContributions.id, id));
}

export async function markGiftContributionRefunded(db: Db, id: string, amountRefunded: number) {
  await db
    .update(giftContributions)
    .set({ status: "refunded", amountRefunded, refundedAt: new Date() })
    .where(eq(giftContributions.id, id));
}

/**
 * Its payment page expired unpaid (the payment webhook says so): a pending contribution of that
 * session becomes abandoned; true when it did.
 */
export async function markGiftContributionAbandoned(db: Db, id: string, checkoutSessionId: string) {
  const saved = await db
    .update(giftContributions)
    .set({ status: "abandoned" })
    .where(
      and(
        eq(giftContributions.id, id),
        eq(giftContributions.status, "pending"),
        or(isNull(giftContributions.checkoutSessionId), eq(giftContributions.checkoutSessionId, checkoutSessionId)),
      ),
    )
    .returning({ id: giftContributions.id });
  return saved.length > 0;
}
