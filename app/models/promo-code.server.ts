import { carts, events, invoices, promoCodes, promoRedemptions, users, type PromoCode } from "drizzle/schema";
import { and, count, desc, eq, gt, or, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export async function findPromoCodeById(db: Db, id: string) {
  const [code] = await db.select().from(promoCodes).where(eq(promoCodes.id, id)).limit(1);
  return code ?? null;
}

/** A code by what a buyer typed, whatever its case. */
export async function findPromoCodeByCode(db: Db, code: string) {
  const [found] = await db
    .select()
    .from(promoCodes)
    .where(sql`lower(${promoCodes.code}) = lower(${code.trim()})`)
    .limit(1);
  return found ?? null;
}

/** The code row locked until the transaction ends, so two redemptions count one after the other. */
export async function lockPromoCode(db: Db, id: string) {
  const [code] = await db.select().from(promoCodes).where(eq(promoCodes.id, id)).for("update").limit(1);
  return code ?? null;
}

export type NewPromoCode = Pick<PromoCode, "code" | "kind" | "value"> &
  Partial<
    Pick<
      PromoCode,
      | "currency"
      | "expiresAt"
      | "maxRedemptions"
      | "maxPerUser"
      | "productKeys"
      | "firstPurchaseOnly"
      | "paused"
      | "ownerUserId"
      | "ownerEmail"
      | "rsvpId"
      | "createdBy"
    >
  >;

export async function insertPromoCode(db: Db, input: NewPromoCode) {
  const [code] = await db.insert(promoCodes).values(input).returning();
  return code!;
}

/** The code made for an invitee, made once: a second call returns the first one's. */
export async function findOrInsertRsvpPromoCode(db: Db, input: NewPromoCode & { rsvpId: string }) {
  const [made] = await db.insert(promoCodes).values(input).onConflictDoNothing({ target: promoCodes.rsvpId }).returning();
  if (made) return made;
  const [found] = await db.select().from(promoCodes).where(eq(promoCodes.rsvpId, input.rsvpId)).limit(1);
  return found!;
}

/** Codes that are someone's own: by their account, or by their e-mail address before they had one. */
export async function listPromoCodesOwnedBy(db: Db, owner: { id: string; email: string }) {
  return db
    .select()
    .from(promoCodes)
    .where(or(eq(promoCodes.ownerUserId, owner.id), sql`lower(${promoCodes.ownerEmail}) = lower(${owner.email})`))
    .orderBy(desc(promoCodes.createdAt));
}

/** Redemptions of a code by everyone and by one buyer. */
export async function countRedemptions(db: Db, promoCodeId: string, userId: string) {
  const [row] = await db
    .select({
      all: count(),
      byUser: sql<number>`count(*) filter (where ${promoRedemptions.userId} = ${userId})::int`,
    })
    .from(promoRedemptions)
    .where(eq(promoRedemptions.promoCodeId, promoCodeId));
  return { all: row?.all ?? 0, byUser: row?.byUser ?? 0 };
}

/** Records the code's use on a cart; a cart redeems once, and a second call changes nothing. */
export async function insertRedemption(
  db: Db,
  input: { promoCodeId: string; userId: string; cartId: string; discount: number; currency: string },
) {
  const [made] = await db.insert(promoRedemptions).values(input).onConflictDoNothing({ target: promoRedemptions.cartId }).returning();
  return made ?? null;
}

/** Whether someone has paid for something before: an invoice above zero. */
export async function hasPaidInvoice(db: Db, userId: string) {
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.userId, userId), gt(invoices.total, 0)))
    .limit(1);
  return !!row;
}

/** Every code with how often it has been used, newest first, for staff; paged. */
export async function listPromoCodesWithUses(db: Db, options: { limit: number; offset: number }) {
  const uses = db
    .select({ promoCodeId: promoRedemptions.promoCodeId, uses: count().as("uses") })
    .from(promoRedemptions)
    .groupBy(promoRedemptions.promoCodeId)
    .as("uses");
  return db
    .select({ code: promoCodes, uses: sql<number>`coalesce(${uses.uses}, 0)::int` })
    .from(promoCodes)
    .leftJoin(uses, eq(uses.promoCodeId, promoCodes.id))
    .orderBy(desc(promoCodes.createdAt), desc(promoCodes.id))
    .limit(options.limit)
    .offset(options.offset);
}

export async function setPromoCodePaused(db: Db, id: string, paused: boolean) {
  const [code] = await db.update(promoCodes).set({ paused }).where(eq(promoCodes.id, id)).returning();
  return code ?? null;
}

/** Who used a code, on which Chorus, and what it took off, newest first. */
export async function listRedemptionsOfCode(db: Db, promoCodeId: string, limit = 100) {
  return db
    .select({
      redemption: promoRedemptions,
      buyerEmail: users.email,
      eventUuid: events.uuid,
      eventTitle: events.title,
      invoiceNumber: invoices.number,
    })
    .from(promoRedemptions)
    .innerJoin(users, eq(users.id, promoRedemptions.userId))
    .leftJoin(carts, eq(carts.id, promoRedemptions.cartId))
    .leftJoin(events, eq(events.id, carts.eventId))
    .leftJoin(invoices, eq(invoices.cartId, promoRedemptions.cartId))
    .where(eq(promoRedemptions.promoCodeId, promoCodeId))
    .orderBy(desc(promoRedemptions.createdAt))
    .limit(limit);
}
