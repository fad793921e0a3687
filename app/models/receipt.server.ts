import { receipts, type Receipt } from "drizzle/schema";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

// Receipts of the payments that have no invoice (docs/decisions/048): one per payment at the
// payment service, with what the refunds told since came to.

export type NewReceipt = Pick<
  Receipt,
  | "kind"
  | "subjectId"
  | "provider"
  | "providerPaymentId"
  | "userId"
  | "eventId"
  | "email"
  | "name"
  | "description"
  | "amount"
  | "currency"
  | "paidAt"
>;

/** Records a payment's receipt once: the same payment told twice returns the row the first time made. */
export async function findOrInsertReceipt(db: Db, input: NewReceipt) {
  const [made] = await db
    .insert(receipts)
    .values(input)
    .onConflictDoNothing({ target: [receipts.provider, receipts.providerPaymentId] })
    .returning();
  if (made) return { receipt: made, created: true };
  const [found] = await db
    .select()
    .from(receipts)
    .where(and(eq(receipts.provider, input.provider), eq(receipts.providerPaymentId, input.providerPaymentId)))
    .limit(1);
  return { receipt: found!, created: false };
}

export async function findReceiptById(db: Db, id: string) {
  const [found] = await db.select().from(receipts).where(eq(receipts.id, id)).limit(1);
  return found ?? null;
}

/** The receipt of a payment by the payment service's id for it, locked until the transaction ends. */
export async function lockReceiptOfPayment(db: Db, providerPaymentId: string) {
  const [found] = await db.select().from(receipts).where(eq(receipts.providerPaymentId, providerPaymentId)).for("update").limit(1);
  return found ?? null;
}

export async function setReceiptRefunded(db: Db, id: string, amountRefunded: number) {
  await db.update(receipts).set({ amountRefunded }).where(eq(receipts.id, id));
}

/**
 * Why we are refunding a payment, written before the refund is asked for, so the notice its refund
 * event queues can say so.
 */
export async function noteRefundReason(db: Db, providerPaymentId: string, reason: string) {
  await db.update(receipts).set({ refundReason: reason }).where(eq(receipts.providerPaymentId, providerPaymentId));
}

/** An account's own receipts (postcards, posted copies), newest first. */
export async function listReceiptsOfUser(db: Db, userId: string) {
  return db.select().from(receipts).where(eq(receipts.userId, userId)).orderBy(desc(receipts.paidAt), desc(receipts.id));
}
