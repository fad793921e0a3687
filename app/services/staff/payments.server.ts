import type { Invoice, Payment, User } from "drizzle/schema";
import type { z } from "zod";
import { formatMoney, moneyInput, parseMoney } from "~/domain/commerce/money";
import { checkRefund, refundableAmount, refundIdempotencyKey } from "~/domain/commerce/refunds";
import type { refundInput } from "~/domain/commerce/staff-input";
import { isPaymentServiceError } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { ApiError, badRequest, notFound } from "~/lib/http.server";
import { findInvoiceOfPayment, findPaymentForStaff, searchPayments } from "~/models/payment.server";
import { paymentsProvider } from "~/services/payments/provider.server";
import { recentStaffActions, recordStaffAction, type StaffActionView } from "./staff-actions.server";

// Payments as administrators see them at /admin/payments, and the refunds they ask for. A refund
// is asked of the payment service; our payment row changes only when its `charge.refunded` event
// comes back through the webhook (docs/decisions/018-what-payment-unlocks.md).

export const PAYMENTS_PAGE_SIZE = 25;

const STATUS_WORDS: Record<Payment["status"], string> = {
  paid: "Paid",
  partially_refunded: "Partly refunded",
  refunded: "Refunded",
};

function paymentView(payment: Payment) {
  return {
    id: payment.id,
    createdAt: payment.createdAt.toISOString(),
    amount: formatMoney(payment.amount, payment.currency),
    refunded: payment.amountRefunded > 0 ? formatMoney(payment.amountRefunded, payment.currency) : null,
    left: formatMoney(refundableAmount(payment), payment.currency),
    leftInput: moneyInput(refundableAmount(payment), payment.currency),
    canRefund: refundableAmount(payment) > 0,
    status: payment.status,
    statusWords: STATUS_WORDS[payment.status],
    provider: payment.provider,
    providerPaymentId: payment.providerPaymentId,
    providerSessionId: payment.providerSessionId,
    providerCustomerId: payment.providerCustomerId,
  };
}

const chorusView = (row: { eventUuid: string | null; eventTitle: string | null; eventCode: string | null }) =>
  row.eventUuid ? { uuid: row.eventUuid, title: row.eventTitle || "Untitled Chorus", code: row.eventCode } : null;

/** A page of payments, newest first, optionally only those whose buyer's e-mail or invoice number contains `search`. */
export async function listPaymentsForStaff(options: { search: string | null; page: number }) {
  const rows = await searchPayments(db(), {
    search: options.search,
    limit: PAYMENTS_PAGE_SIZE + 1,
    offset: (options.page - 1) * PAYMENTS_PAGE_SIZE,
  });
  return {
    payments: rows.slice(0, PAYMENTS_PAGE_SIZE).map((row) => ({
      ...paymentView(row.payment),
      buyerEmail: row.buyerEmail,
      invoiceNumber: row.invoiceNumber,
      chorus: chorusView(row),
    })),
    hasMore: rows.length > PAYMENTS_PAGE_SIZE,
  };
}

function invoiceView(invoice: Invoice) {
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  return {
    number: invoice.number,
    paidAt: invoice.paidAt.toISOString(),
    lines: invoice.lines.map((line) => ({
      key: line.key,
      name: line.name,
      quantity: line.quantity,
      amount: money(line.amount),
      discount: line.discount > 0 ? money(line.discount) : null,
      net: money(line.net),
      included: line.included,
    })),
    subtotal: money(invoice.subtotal),
    discount: invoice.discount > 0 ? money(invoice.discount) : null,
    promoCode: invoice.promoCode,
    tax: invoice.tax > 0 ? money(invoice.tax) : null,
    taxLabel: `${invoice.taxLabel}${invoice.taxBasisPoints ? ` ${invoice.taxBasisPoints / 100} %` : ""}`,
    country: invoice.country,
    total: money(invoice.total),
  };
}

async function requirePayment(id: string) {
  const found = await findPaymentForStaff(db(), id);
  if (!found) throw notFound("There is no payment with this id.");
  return found;
}

const requestedTotal = (actions: StaffActionView[]) => actions.reduce((sum, a) => sum + (a.refundAmount ?? 0), 0);

/** One payment with its invoice, what has been refunded, and what staff did to it. */
export async function paymentDetailForStaff(id: string) {
  const found = await requirePayment(id);
  const [invoice, actions] = await Promise.all([findInvoiceOfPayment(db(), id), recentStaffActions({ type: "payment", id })]);
  return {
    payment: {
      ...paymentView(found.payment),
      currency: found.payment.currency,
      buyerEmail: found.buyerEmail,
      chorus: chorusView(found),
      chorusPaid: found.eventPaid,
      // Refunds go to the payment service that took the payment.
      takenElsewhere: found.payment.provider !== paymentsProvider().name,
    },
    invoice: invoice ? invoiceView(invoice) : null,
    // Refunds asked for that the payment service has not confirmed through its webhook yet.
    awaitingConfirmation: requestedTotal(actions) > found.payment.amountRefunded,
    actions,
  };
}

export type RefundRequest = z.infer<typeof refundInput>;

/**
 * Asks the payment service to refund all that is left of a payment, or part of it. The key it is
 * asked with makes a button pressed twice one refund, and one record of it. Nothing here changes
 * the payment: its `charge.refunded` event does, when the payment service sends it.
 */
export async function requestRefund(admin: Pick<User, "id" | "email">, paymentId: string, request: RefundRequest) {
  const { payment } = await requirePayment(paymentId);
  let amount: number | null = null;
  if (request.scope === "part") {
    amount = parseMoney(request.amount, payment.currency);
    if (amount === null) {
      const message = `Enter an amount like ${moneyInput(Math.min(250, payment.amount), payment.currency)}.`;
      throw badRequest(message, { amount: message });
    }
  }
  const check = checkRefund(payment, amount);
  if (!check.ok) throw badRequest(check.message, { amount: check.message });
  const provider = paymentsProvider();
  if (payment.provider !== provider.name) {
    throw new ApiError(
      409,
      "OTHER_PAYMENT_SERVICE",
      `This payment was taken by the ${payment.provider} payment service, which this server does not use: refund it there.`,
    );
  }
  const idempotencyKey = refundIdempotencyKey(payment, check.amount);
  let refund: { id: string; status: string };
  try {
    refund = await provider.refund({
      paymentIntentId: payment.providerPaymentId,
      amount: check.amount,
      idempotencyKey,
      metadata: { paymentId: payment.id, reason: request.reason, requestedBy: admin.email },
    });
  } catch (error) {
    if (!isPaymentServiceError(error)) throw error;
    throw error.retryable
      ? new ApiError(503, "PAYMENT_SERVICE_UNAVAILABLE", error.message)
      : new ApiError(502, "PAYMENT_SERVICE_REFUSED", error.message);
  }
  const recorded = await recordStaffAction(
    admin,
    "refund_requested",
    { type: "payment", id: payment.id },
    { amount: check.amount, currency: payment.currency, reason: request.reason, refundId: refund.id, refundStatus: refund.status },
    { idempotencyKey },
  );
  return { amount: formatMoney(check.amount, payment.currency), refundId: refund.id, repeated: recorded === null };
}
