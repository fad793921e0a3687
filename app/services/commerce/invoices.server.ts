import type { Invoice } from "drizzle/schema";
import { formatMoney } from "~/domain/commerce/money";
import { INCLUSION_LABEL, type Inclusion } from "~/domain/commerce/pricing";
import { PRODUCT_NAME } from "~/domain/product";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { findEventById } from "~/models/event.server";
import { findInvoiceById, listInvoicesOfUser } from "~/models/payment.server";
import { findUserById } from "~/models/user.server";
import { deliverOnce } from "~/services/events/delivery.server";
import { renderEmail } from "~/services/messaging/email-layout.server";
import { sendMail } from "~/services/messaging/mail.server";

export function invoiceView(invoice: Invoice) {
  return {
    id: invoice.id,
    number: invoice.number,
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

/** GET /v2/invoices: the caller's own invoices, newest first. */
export async function invoicesOf(userId: string) {
  return (await listInvoicesOfUser(db(), userId)).map(invoiceView);
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
  const mail = renderEmail({
    subject: `Your ${PRODUCT_NAME} receipt ${invoice.number}`,
    heading: "Thank you for your purchase",
    paragraphs: [`Receipt ${invoice.number}, ${invoice.paidAt.toISOString().slice(0, 10)}.`, ...receiptLines(invoice)],
    action: event ? { label: `Open your ${PRODUCT_NAME}`, url: `${env().APP_URL}/e/${event.uuid}` } : undefined,
    footnote: "Keep this e-mail for your records.",
  });
  await deliverOnce(`receipt:${invoice.id}`, "email", buyer.email, () => sendMail({ to: buyer.email, ...mail }));
}
