import { invoices, payments, type Invoice, type Payment } from "drizzle/schema";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export type NewPayment = Pick<Payment, "provider" | "providerPaymentId" | "amount" | "currency" | "userId"> &
  Partial<Pick<Payment, "providerSessionId" | "providerCustomerId" | "cartId" | "eventId">>;

/** Records a payment once: the same payment told twice returns the row the first time made. */
export async function findOrInsertPayment(db: Db, input: NewPayment) {
  const [made] = await db
    .insert(payments)
    .values(input)
    .onConflictDoNothing({ target: [payments.provider, payments.providerPaymentId] })
    .returning();
  if (made) return { payment: made, created: true };
  const [found] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, input.provider), eq(payments.providerPaymentId, input.providerPaymentId)))
    .limit(1);
  return { payment: found!, created: false };
}

/** A payment by the payment service's id for it, whichever service took it. */
export async function findPaymentByProviderId(db: Db, providerPaymentId: string) {
  const [found] = await db.select().from(payments).where(eq(payments.providerPaymentId, providerPaymentId)).for("update").limit(1);
  return found ?? null;
}

export async function findPaymentOfCart(db: Db, cartId: string) {
  const [found] = await db.select().from(payments).where(eq(payments.cartId, cartId)).limit(1);
  return found ?? null;
}

export async function setPaymentRefund(db: Db, id: string, amountRefunded: number, status: Payment["status"]) {
  const [payment] = await db.update(payments).set({ amountRefunded, status, updatedAt: new Date() }).where(eq(payments.id, id)).returning();
  return payment ?? null;
}

export type NewInvoice = Omit<Invoice, "id" | "number" | "createdAt">;

/** Writes an invoice with the next number; one per cart, so a second call returns the first one's. */
export async function findOrInsertInvoice(db: Db, input: NewInvoice & { cartId: string }) {
  const [made] = await db
    .insert(invoices)
    .values({ ...input, number: sql`'CH-' || lpad(nextval('invoice_number_seq')::text, 6, '0')` })
    .onConflictDoNothing({ target: invoices.cartId })
    .returning();
  if (made) return { invoice: made, created: true };
  const [found] = await db.select().from(invoices).where(eq(invoices.cartId, input.cartId)).limit(1);
  return { invoice: found!, created: false };
}

export async function findInvoiceById(db: Db, id: string) {
  const [found] = await db.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  return found ?? null;
}

export async function findInvoiceOfCart(db: Db, cartId: string) {
  const [found] = await db.select().from(invoices).where(eq(invoices.cartId, cartId)).limit(1);
  return found ?? null;
}

export async function listInvoicesOfUser(db: Db, userId: string) {
  return db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.paidAt));
}
