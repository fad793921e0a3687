import { formatMoney } from "./money";

// Refunds staff ask the payment service for (docs/decisions/018-what-payment-unlocks.md). The
// payment row changes only when the payment service's `charge.refunded` event comes back; these
// rules only decide what may be asked.

export interface RefundablePayment {
  id: string;
  amount: number;
  amountRefunded: number;
  currency: string;
}

/** What is left to refund, as our records know it. */
export const refundableAmount = (payment: RefundablePayment) => Math.max(0, payment.amount - payment.amountRefunded);

/**
 * The key a refund is asked for with: the same payment, refunded total so far and amount give the
 * same key, so a button pressed twice (or a request retried) makes one refund at the payment
 * service. Once its event has come back, the total so far has moved and a new refund gets a new key.
 */
export const refundIdempotencyKey = (payment: RefundablePayment, amount: number) =>
  `refund:${payment.id}:${payment.amountRefunded}:${amount}`;

export type RefundCheck = { ok: true; amount: number; whole: boolean } | { ok: false; message: string };

/** Whether `amount` (the whole of what is left when null) may be refunded now. */
export function checkRefund(payment: RefundablePayment, amount: number | null): RefundCheck {
  const left = refundableAmount(payment);
  if (left === 0) return { ok: false, message: "This payment has been refunded in full already." };
  const asked = amount ?? left;
  if (asked <= 0) return { ok: false, message: "Enter an amount above zero." };
  if (asked > left) {
    return {
      ok: false,
      message: `At most ${formatMoney(left, payment.currency)} is left to refund on this payment; ${formatMoney(asked, payment.currency)} is more.`,
    };
  }
  return { ok: true, amount: asked, whole: asked === left && payment.amountRefunded === 0 };
}
