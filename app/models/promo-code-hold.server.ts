import { promoCodeHolds, type PromoCodeHold } from "drizzle/schema";
import { and, eq, gt, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

// Uses of promo codes held by open payment pages (docs/decisions/046-limits-held-while-a-page-is-open.md).
// A hold counts until the payment service says its page expired, or at the latest an hour past the
// page's expiry (a page paid in its last second whose webhook comes late keeps its use; a webhook
// that never comes does not hold the code for ever). The caller locks the code's row first, so holds
// and redemptions of one code are counted one caller after another.

/** A hold is live until an hour past its page's expiry, unless let go before. */
const live = () => gt(promoCodeHolds.expiresAt, sql`now() - interval '1 hour'`);

/** Live holds of a code by other carts than `exceptCartId` (a cart redeems once, however many pages it opened). */
export async function countLiveHolds(db: Db, promoCodeId: string, userId: string, exceptCartId: string | null) {
  const [row] = await db
    .select({
      all: sql<number>`count(distinct ${promoCodeHolds.cartId})::int`,
      byUser: sql<number>`count(distinct ${promoCodeHolds.cartId}) filter (where ${promoCodeHolds.userId} = ${userId})::int`,
      firstFreesAt: sql<Date | null>`min(${promoCodeHolds.expiresAt})`.mapWith((v: string | null) => (v ? new Date(v) : null)),
      firstOfUserFreesAt: sql<Date | null>`min(${promoCodeHolds.expiresAt}) filter (where ${promoCodeHolds.userId} = ${userId})`.mapWith(
        (v: string | null) => (v ? new Date(v) : null),
      ),
    })
    .from(promoCodeHolds)
    .where(and(eq(promoCodeHolds.promoCodeId, promoCodeId), live(), exceptCartId ? ne(promoCodeHolds.cartId, exceptCartId) : undefined));
  return {
    all: row?.all ?? 0,
    byBuyer: row?.byUser ?? 0,
    firstFreesAt: row?.firstFreesAt ?? null,
    firstOfBuyerFreesAt: row?.firstOfUserFreesAt ?? null,
  };
}

/** Live holds of each code in `promoCodeIds`, for staff's list. */
export async function countLiveHoldsByCode(db: Db, promoCodeIds: string[]) {
  if (!promoCodeIds.length) return new Map<string, number>();
  const rows = await db
    .select({ promoCodeId: promoCodeHolds.promoCodeId, held: sql<number>`count(distinct ${promoCodeHolds.cartId})::int` })
    .from(promoCodeHolds)
    .where(and(inArray(promoCodeHolds.promoCodeId, promoCodeIds), live()))
    .groupBy(promoCodeHolds.promoCodeId);
  return new Map(rows.map((row) => [row.promoCodeId, row.held]));
}

export async function findHoldByCheckoutKey(db: Db, checkoutKey: string) {
  const [hold] = await db.select().from(promoCodeHolds).where(eq(promoCodeHolds.checkoutKey, checkoutKey)).limit(1);
  return hold ?? null;
}

export async function insertPromoCodeHold(
  db: Db,
  input: Pick<PromoCodeHold, "promoCodeId" | "cartId" | "userId" | "checkoutKey" | "expiresAt">,
) {
  const [hold] = await db.insert(promoCodeHolds).values(input).returning();
  return hold!;
}

/** The page is open: the hold names its session and lasts as long as it (when its expiry is known). */
export async function attachHoldToSession(db: Db, checkoutKey: string, checkoutSessionId: string, expiresAt: Date | null) {
  await db
    .update(promoCodeHolds)
    .set({ checkoutSessionId, ...(expiresAt ? { expiresAt } : {}) })
    .where(eq(promoCodeHolds.checkoutKey, checkoutKey));
}

/** The hold made for a page that could not be opened. */
export async function deleteHoldByCheckoutKey(db: Db, checkoutKey: string) {
  await db.delete(promoCodeHolds).where(eq(promoCodeHolds.checkoutKey, checkoutKey));
}

/** The page expired or its payment failed: what it held is let go. True when something was. */
export async function releaseHoldsOfSession(db: Db, checkoutSessionId: string) {
  const released = await db
    .delete(promoCodeHolds)
    .where(eq(promoCodeHolds.checkoutSessionId, checkoutSessionId))
    .returning({ id: promoCodeHolds.id });
  return released.length > 0;
}

/** The cart is settled: its redemption (if any) counts from now on, in place of its holds. */
export async function releaseHoldsOfCart(db: Db, cartId: string) {
  await db.delete(promoCodeHolds).where(eq(promoCodeHolds.cartId, cartId));
}
