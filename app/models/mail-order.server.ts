import { events, mailOrders, users, type MailOrder } from "drizzle/schema";
import { desc, eq, inArray, sql } from "drizzle-orm";
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
    .where(sql`${mailOrders.status} <> 'awaiting_payment'`)
    .orderBy(sql`${mailOrders.status} = 'failed' desc`, desc(mailOrders.createdAt))
    .limit(limit);
}
