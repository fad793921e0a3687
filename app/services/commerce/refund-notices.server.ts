import { refundWords } from "~/domain/commerce/receipts";
import type { JobData } from "~/jobs/catalogue";
import { enqueue } from "~/jobs/queue.server";
import { db, type Db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { findInvoiceOfPayment, findPaymentById } from "~/models/payment.server";
import { findReceiptById, lockReceiptOfPayment, setReceiptRefunded } from "~/models/receipt.server";
import { findUserById } from "~/models/user.server";
import { deliverOnce } from "~/services/events/delivery.server";
import { renderEmail } from "~/services/messaging/email-layout.server";
import { sendMail } from "~/services/messaging/mail.server";
import { formatDay } from "./invoices.server";
import { ignored, type PaymentEffect } from "./payment-event-fields.server";
import type { RefundedCharge } from "./payment-event-schemas";
import { receiptUrl } from "./receipts.server";

// Every refund is told to the person who paid (docs/decisions/048): the payment service's
// `charge.refunded` carries the refunded total so far, and where that total grows the notice is
// queued in the same transaction that records it, keyed by the total, so an event told twice, or
// told late after a larger one, sends nothing more.

export type RefundNotice = JobData["refund-notice"];

/** Queues the notice of one refund: the payment's refunded total went from `previously` to `refunded`. */
export async function queueRefundNotice(tx: Db, notice: RefundNotice) {
  if (notice.refunded <= notice.previously) return;
  await enqueue("refund-notice", notice, { db: tx });
}

/**
 * `charge.refunded` for a payment that has a receipt (a contribution, a postcard, a posted order):
 * the larger refunded total is recorded, and its notice queued when it grew.
 */
export async function receiptRefunded(charge: RefundedCharge, tx: Db): Promise<PaymentEffect> {
  const paymentId = charge.payment_intent;
  const receipt = paymentId ? await lockReceiptOfPayment(tx, paymentId) : null;
  if (!receipt) return ignored(`no payment ${paymentId ?? "(none named)"} here`);
  const refunded = Math.min(receipt.amount, Math.max(receipt.amountRefunded, charge.amount_refunded ?? 0));
  if (refunded > receipt.amountRefunded) {
    await setReceiptRefunded(tx, receipt.id, refunded);
    await queueRefundNotice(tx, { ledger: "receipt", id: receipt.id, refunded, previously: receipt.amountRefunded });
  }
  return { effect: "receipt-refund", receiptId: receipt.id, amountRefunded: refunded };
}

/** Whom a notice goes to, what for, and where its receipt is. */
async function noticeFacts(notice: RefundNotice) {
  if (notice.ledger === "receipt") {
    const receipt = await findReceiptById(db(), notice.id);
    if (!receipt) return null;
    return {
      to: receipt.email,
      name: receipt.name,
      what: receipt.description,
      amount: receipt.amount,
      currency: receipt.currency,
      paidAt: receipt.paidAt,
      reason: receipt.refundReason,
      link: receiptUrl(receipt),
    };
  }
  const payment = await findPaymentById(db(), notice.id);
  const payer = payment ? await findUserById(db(), payment.userId) : null;
  if (!payment || !payer) return null;
  const invoice = await findInvoiceOfPayment(db(), payment.id);
  return {
    to: payer.email,
    name: null,
    // An invoice of ours names its lines; a membership's has no Chorus.
    what: invoice && !invoice.eventId && !invoice.cartId ? "your VIP membership" : "your Chorus",
    amount: payment.amount,
    currency: payment.currency,
    paidAt: invoice?.paidAt ?? payment.createdAt,
    reason: null,
    link: invoice ? `${env().APP_URL}/settings/billing/invoices/${invoice.id}` : `${env().APP_URL}/settings/billing`,
    receiptNumber: invoice?.number ?? null,
  };
}

/** The notice job: the payer hears of this refund once, however often the job runs. */
export async function sendRefundNotice(notice: RefundNotice) {
  const facts = await noticeFacts(notice);
  if (!facts) return;
  const words = refundWords({
    ...facts,
    refunded: notice.refunded,
    previously: notice.previously,
    paidOn: formatDay(facts.paidAt.toISOString()),
  });
  const mail = renderEmail({
    subject: words.subject,
    heading: facts.name ? `${facts.name}, ${words.heading[0]!.toLowerCase()}${words.heading.slice(1)}` : words.heading,
    paragraphs: [
      words.sentence,
      ...(facts.reason ? [facts.reason] : []),
      ...("receiptNumber" in facts && facts.receiptNumber ? [`Receipt ${facts.receiptNumber}.`] : []),
      "It goes back to the card you paid with; it can take a few days to show.",
    ],
    action: { label: "See your receipt", url: facts.link },
  });
  await deliverOnce(`refund:${notice.ledger}:${notice.id}:${notice.refunded}`, "email", facts.to, () =>
    sendMail({ to: facts.to, ...mail }),
  );
}
