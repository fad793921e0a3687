import { events, invoices, payments, users, type Invoice, type Payment } from "drizzle/schema";
import { and, desc, eq, ilike, or, sql } from "drizzle-orm";
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

export async function findPaymentById(db: Db, id: string) {
  const [found] = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
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

export type NewInvoice = Omit<Invoice, "id" | "number" | "createdAt" | "providerInvoiceId">;

const nextInvoiceNumber = sql`'CH-' || lpad(nextval('invoice_number_seq')::text, 6, '0')`;

/** Writes an invoice with the next number; one per cart, so a second call returns the first one's. */
export async function findOrInsertInvoice(db: Db, input: NewInvoice & { cartId: string }) {
  const [made] = await db
    .insert(invoices)
    .values({ ...input, number: nextInvoiceNumber })
    .onConflictDoNothing({ target: invoices.cartId })
    .returning();
  if (made) return { invoice: made, created: true };
  const [found] = await db.select().from(invoices).where(eq(invoices.cartId, input.cartId)).limit(1);
  return { invoice: found!, created: false };
}

/**
 * Writes the invoice of one of the payment service's own invoices (a membership's period) with the
 * next number; once per invoice of theirs, so the same invoice told twice returns the first one's.
 */
export async function findOrInsertProviderInvoice(db: Db, input: NewInvoice & { providerInvoiceId: string }) {
  const [made] = await db
    .insert(invoices)
    .values({ ...input, number: nextInvoiceNumber })
    .onConflictDoNothing({ target: invoices.providerInvoiceId })
    .returning();
  if (made) return { invoice: made, created: true };
  const [found] = await db.select().from(invoices).where(eq(invoices.providerInvoiceId, input.providerInvoiceId)).limit(1);
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

/** What became of an invoice's payment since: refunds (an invoice itself never changes once issued). */
const paymentOutcome = {
  paymentStatus: payments.status,
  amountRefunded: payments.amountRefunded,
};

export type InvoiceWithPayment = Invoice & { paymentStatus: Payment["status"] | null; amountRefunded: number | null };

/** A user's invoices with what became of their payments, newest first (the later number first on the same moment). */
export async function listInvoicesOfUser(db: Db, userId: string): Promise<InvoiceWithPayment[]> {
  const rows = await db
    .select({ invoice: invoices, ...paymentOutcome })
    .from(invoices)
    .leftJoin(payments, eq(payments.id, invoices.paymentId))
    .where(eq(invoices.userId, userId))
    .orderBy(desc(invoices.paidAt), desc(invoices.number));
  return rows.map(({ invoice, ...outcome }) => ({ ...invoice, ...outcome }));
}

/** One invoice with what became of its payment. */
export async function findInvoiceWithPayment(db: Db, id: string): Promise<InvoiceWithPayment | null> {
  const [row] = await db
    .select({ invoice: invoices, ...paymentOutcome })
    .from(invoices)
    .leftJoin(payments, eq(payments.id, invoices.paymentId))
    .where(eq(invoices.id, id))
    .limit(1);
  return row ? { ...row.invoice, paymentStatus: row.paymentStatus, amountRefunded: row.amountRefunded } : null;
}

/** `text` for a LIKE pattern that matches it literally. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Payments for staff, newest first: with the buyer's e-mail, the invoice's number and the Chorus.
 * `search` matches part of the buyer's e-mail or of the invoice number, whatever the case.
 */
export async function searchPayments(db: Db, options: { search: string | null; limit: number; offset: number }) {
  const pattern = options.search ? `%${likeLiteral(options.search)}%` : null;
  return db
    .select({
      payment: payments,
      buyerEmail: users.email,
      invoiceNumber: invoices.number,
      eventUuid: events.uuid,
      eventTitle: events.title,
      eventCode: events.eventId,
    })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .leftJoin(invoices, eq(invoices.paymentId, payments.id))
    .leftJoin(events, eq(events.id, payments.eventId))
    .where(pattern ? or(ilike(users.email, pattern), ilike(invoices.number, pattern)) : undefined)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(options.limit)
    .offset(options.offset);
}

/** One payment for staff, with what the search list shows of it. */
export async function findPaymentForStaff(db: Db, id: string) {
  const [found] = await db
    .select({
      payment: payments,
      buyerEmail: users.email,
      eventUuid: events.uuid,
      eventTitle: events.title,
      eventCode: events.eventId,
      eventPaid: events.paid,
    })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .leftJoin(events, eq(events.id, payments.eventId))
    .where(eq(payments.id, id))
    .limit(1);
  return found ?? null;
}

export async function findInvoiceOfPayment(db: Db, paymentId: string) {
  const [found] = await db.select().from(invoices).where(eq(invoices.paymentId, paymentId)).limit(1);
  return found ?? null;
}

/**
 * The product keys an event's invoices sold, leaving out invoices whose payment was refunded in
 * full (a partial refund keeps what was bought; a free checkout has no payment and keeps it too).
 */
export async function listPurchasedKeysOfEvent(db: Db, eventId: string): Promise<Set<string>> {
  const rows = await db
    .select({ lines: invoices.lines, paymentStatus: payments.status })
    .from(invoices)
    .leftJoin(payments, eq(payments.id, invoices.paymentId))
    .where(eq(invoices.eventId, eventId));
  return new Set(rows.filter((row) => row.paymentStatus !== "refunded").flatMap((row) => row.lines.map((line) => line.key)));
}

/** One account's payments for staff, newest first, with the Chorus each paid for. */
export async function listPaymentsOfUser(db: Db, userId: string, limit = 50) {
  return db
    .select({ payment: payments, eventUuid: events.uuid, eventTitle: events.title })
    .from(payments)
    .leftJoin(events, eq(events.id, payments.eventId))
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit);
}
