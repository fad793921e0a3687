import { events, mailOrders, users, type MailOrder } from "drizzle/schema";
import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export type NewMailOrder = Pick<
  MailOrder,
  | "eventId"
  | "userId"
  | "kind"
  | "productKey"
  | "quantity"
  | "unitAmount"
  | "shippingAmount"
  | "totalAmount"
  | "currency"
  | "address"
  | "publishedMediaId"
  | "fileToken"
>;

export async function insertMailOrder(db: Db, values: NewMailOrder) {
  const [made] = await db.insert(mailOrders).values(values).returning();
  return made!;
}

export async function findMailOrder(db: Db, id: string, options: { forUpdate?: boolean } = {}) {
  const query = db.select().from(mailOrders).where(eq(mailOrders.id, id)).limit(1);
  const [found] = options.forUpdate ? await query.for("update") : await query;
  return found ?? null;
}

export type MailOrderChanges = Partial<
  Pick<
    MailOrder,
    | "status"
    | "provider"
    | "checkoutSessionId"
    | "paymentIntentId"
    | "paidAt"
    | "vendor"
    | "vendorOrderId"
    | "trackingNumber"
    | "trackingUrl"
    | "expectedDelivery"
    | "failure"
    | "amountRefunded"
  >
>;

export async function updateMailOrder(db: Db, id: string, changes: MailOrderChanges) {
  const [row] = await db
    .update(mailOrders)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(mailOrders.id, id))
    .returning();
  return row ?? null;
}

/** Whether any order, whatever its state, is made from this published version. */
export async function versionHasMailOrders(db: Db, publishedMediaId: string) {
  const [row] = await db.select({ id: mailOrders.id }).from(mailOrders).where(eq(mailOrders.publishedMediaId, publishedMediaId)).limit(1);
  return !!row;
}

/** Orders of an event that were paid for (or are being), newest first. */
export async function listMailOrdersOfEvent(db: Db, eventId: string) {
  return db.select().from(mailOrders).where(eq(mailOrders.eventId, eventId)).orderBy(desc(mailOrders.createdAt));
}

/** Orders at a vendor and not yet posted: those whose progress is looked up. */
export async function listMailOrdersInProgress(db: Db, limit = 200) {
  return db
    .select()
    .from(mailOrders)
    .where(inArray(mailOrders.status, ["received", "printed"]))
    .orderBy(mailOrders.updatedAt)
    .limit(limit);
}

/** For staff: the latest orders past payment, with their Chorus and organiser. */
export async function listMailOrdersForStaff(db: Db, limit = 100) {
  return db
    .select({ order: mailOrders, eventTitle: events.title, eventUuid: events.uuid, organiserEmail: users.email })
    .from(mailOrders)
    .innerJoin(events, eq(events.id, mailOrders.eventId))
    .innerJoin(users, eq(users.id, mailOrders.userId))
    .where(sql`${mailOrders.status} not in ('awaiting_payment', 'abandoned')`)
    .orderBy(sql`${mailOrders.status} = 'failed' desc`, desc(mailOrders.createdAt))
    .limit(limit);
}

/**
 * Its payment page expired unpaid (the payment webhook says so): an order awaiting that session's
 * payment becomes abandoned, and its next payment page is a new one. True when it did.
 */
export async function markMailOrderAbandoned(db: Db, id: string, checkoutSessionId: string) {
  const saved = await db
    .update(mailOrders)
    .set({ status: "abandoned", checkoutAttempts: sql`${mailOrders.checkoutAttempts} + 1`, updatedAt: new Date() })
    .where(
      and(
        eq(mailOrders.id, id),
        eq(mailOrders.status, "awaiting_payment"),
        or(isNull(mailOrders.checkoutSessionId), eq(mailOrders.checkoutSessionId, checkoutSessionId)),
      ),
    )
    .returning({ id: mailOrders.id });
  return saved.length > 0;
}

/** An abandoned order waits for a payment again (its new page follows); null when it is no longer abandoned. */
export async function reopenMailOrder(db: Db, id: string) {
  const [row] = await db
    .update(mailOrders)
    .set({ status: "awaiting_payment", updatedAt: new Date() })
    .where(and(eq(mailOrders.id, id), eq(mailOrders.status, "abandoned")))
    .returning();
  return row ?? null;
}

/** Where the user's most recent order went (any Chorus), to offer it again. */
export async function findLastMailOrderAddress(db: Db, userId: string) {
  const [row] = await db
    .select({ address: mailOrders.address })
    .from(mailOrders)
    .where(eq(mailOrders.userId, userId))
    .orderBy(desc(mailOrders.createdAt))
    .limit(1);
  return row?.address ?? null;
}
