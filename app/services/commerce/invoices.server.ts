import type { Event, Invoice, User } from "drizzle/schema";
import { formatMoney } from "~/domain/commerce/money";
import { INCLUSION_LABEL, type Inclusion } from "~/domain/commerce/pricing";
import { canAccessAccountOf } from "~/domain/membership";
import { PRODUCT_NAME } from "~/domain/product";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { notFound } from "~/lib/http.server";
import { findPaidCartOfEvent } from "~/models/cart.server";
import { findEventById } from "~/models/event.server";
import {
  findInvoiceById,
  findInvoiceOfCart,
  findInvoiceWithPayment,
  listInvoicesOfUser,
  type InvoiceWithPayment,
} from "~/models/payment.server";
import { findUserById } from "~/models/user.server";
import { deliverOnce } from "~/services/events/delivery.server";
import { renderEmail } from "~/services/messaging/email-layout.server";
import { sendMail } from "~/services/messaging/mail.server";

/** What an invoice was for: a Chorus (its cart) or a period of a VIP membership. */
export type InvoiceKind = "chorus" | "membership";

/** What became of the money: an invoice stays as issued, its payment may have been refunded since. */
export type InvoiceStatus = "paid" | "refunded" | "partially_refunded";

export const INVOICE_STATUS_LABEL: Record<InvoiceStatus, string> = {
  paid: "Paid",
  refunded: "Refunded",
  partially_refunded: "Partly refunded",
};

/** "12 March 2026", the same on the server and in every browser. */
export const formatDay = (iso: string) =>
  new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

const kindOf = (invoice: Invoice): InvoiceKind => (invoice.providerInvoiceId ? "membership" : "chorus");

/** "Your Chorus, Premium finish", "VIP membership, monthly". */
const whatOf = (invoice: Invoice) => invoice.lines.map((l) => l.name).join(", ") || `${PRODUCT_NAME} purchase`;

/** The invoice the Chorus itself was paid with (none while unpaid, or when it was paid in another way). */
export async function chorusInvoiceOf(event: Pick<Event, "id" | "paid">) {
  if (!event.paid) return null;
  const paid = await findPaidCartOfEvent(db(), event.id);
  return paid ? await findInvoiceOfCart(db(), paid.id) : null;
}

export function invoiceView(invoice: InvoiceWithPayment) {
  return {
    id: invoice.id,
    number: invoice.number,
    kind: kindOf(invoice),
    what: whatOf(invoice),
    status: (invoice.paymentStatus ?? "paid") satisfies InvoiceStatus,
    amountRefunded: invoice.amountRefunded ?? 0,
    eventId: invoice.eventId,
    cartId: invoice.cartId,
    lines: invoice.lines,
    subtotal: invoice.subtotal,
    discount: invoice.discount,
    tax: invoice.tax,
    taxLabel: invoice.taxLabel,
    taxBasisPoints: invoice.taxBasisPoints,
    total: invoice.total,
    currency: invoice.currency,
    country: invoice.country,
    promoCode: invoice.promoCode,
    paidAt: invoice.paidAt.toISOString(),
  };
}

/** GET /v2/invoices and the billing page: the caller's own invoices (Choruses and membership), newest first. */
export async function invoicesOf(userId: string) {
  return (await listInvoicesOfUser(db(), userId)).map(invoiceView);
}

/**
 * The receipt page of an invoice (/settings/billing/invoices/{id}): its owner's, or anyone's for
 * staff; to everyone else it does not exist. Every amount already in words.
 */
export async function receiptOf(viewer: User, invoiceId: string) {
  const invoice = await findInvoiceWithPayment(db(), invoiceId);
  if (!invoice || !canAccessAccountOf(viewer, invoice.userId)) throw notFound("There is no receipt at this address.");
  const buyer = invoice.userId === viewer.id ? viewer : await findUserById(db(), invoice.userId);
  const event = invoice.eventId ? await findEventById(db(), invoice.eventId, { withDeleted: true }) : null;
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const view = invoiceView(invoice);
  return {
    ...view,
    statusLabel: INVOICE_STATUS_LABEL[view.status],
    date: formatDay(view.paidAt),
    seller: { name: PRODUCT_NAME, website: env().APP_URL },
    buyerEmail: buyer?.email ?? null,
    eventUuid: event && !event.deletedAt ? event.uuid : null,
    lineItems: invoice.lines.map((l) => ({
      key: l.key,
      name: l.quantity > 1 ? `${l.name} × ${l.quantity}` : l.name,
      amount: l.included ? (INCLUSION_LABEL[l.included as Inclusion] ?? "Included") : money(l.amount),
    })),
    subtotalText: money(invoice.subtotal),
    discountText: invoice.discount ? `−${money(invoice.discount)}` : null,
    taxText: invoice.tax ? money(invoice.tax) : null,
    taxName: `${invoice.taxLabel} ${invoice.taxBasisPoints / 100} %`,
    totalText: money(invoice.total),
    paymentMethod: invoice.paymentId ? "Card" : "No payment needed",
    refundedText: invoice.amountRefunded ? money(invoice.amountRefunded) : null,
  };
}

/** The receipt's lines in words: "Your Chorus — $5.00", a discount, tax, the total. */
export function receiptLines(invoice: Invoice) {
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  return [
    ...invoice.lines.map((l) => {
      const what = `${l.name}${l.quantity > 1 ? ` × ${l.quantity}` : ""}`;
      return l.included ? `${what}: ${INCLUSION_LABEL[l.included as Inclusion] ?? "included"}` : `${what}: ${money(l.amount)}`;
    }),
    ...(invoice.discount ? [`Promo code ${invoice.promoCode ?? ""}: −${money(invoice.discount)}`.replace("  ", " ")] : []),
    ...(invoice.tax ? [`${invoice.taxLabel} (${invoice.taxBasisPoints / 100} %): ${money(invoice.tax)}`] : []),
    `Total paid: ${money(invoice.total)}`,
  ];
}

/** The receipt job: the buyer gets it once, however often the job runs. */
export async function sendInvoiceReceipt(invoiceId: string) {
  const invoice = await findInvoiceById(db(), invoiceId);
  if (!invoice) return;
  const buyer = await findUserById(db(), invoice.userId);
  if (!buyer) return;
  const event = invoice.eventId ? await findEventById(db(), invoice.eventId, { withDeleted: true }) : null;
  // The receipt links to its invoice (decision 048); a Chorus's is named beside it.
  const mail = renderEmail({
    subject: `Your ${PRODUCT_NAME} receipt ${invoice.number}`,
    heading: "Thank you for your purchase",
    paragraphs: [
      `Receipt ${invoice.number}, ${invoice.paidAt.toISOString().slice(0, 10)}.`,
      ...receiptLines(invoice),
      ...(event && !event.deletedAt ? [`Your ${PRODUCT_NAME}: ${env().APP_URL}/e/${event.uuid}`] : []),
    ],
    action: { label: "See your receipt", url: `${env().APP_URL}/settings/billing/invoices/${invoice.id}` },
    footnote: "Keep this e-mail for your records.",
  });
  await deliverOnce(`receipt:${invoice.id}`, "email", buyer.email, () => sendMail({ to: buyer.email, ...mail }));
}
