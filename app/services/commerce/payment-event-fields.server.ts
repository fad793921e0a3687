import type { Payment } from "drizzle/schema";
import type { GiftContributionEffect } from "~/services/gift-cards/contribution-effects.server";
import type { MailOrderPaidEffect } from "~/services/mail-orders/mail-order-effect";
import type { PostcardEffect } from "~/services/postcards/postcard-effects.server";
import type { TreeContributionEffect } from "~/services/trees/tree-contribution-effects.server";

// What applying a payment event came to (payment-effects.server.ts, membership-effects.server.ts);
// the events themselves are read by the zod schemas of payment-event-schemas.ts.

/** What an event came to, for the webhook's log and tests. */
export type PaymentEffect =
  | { effect: "cart-paid"; cartId: string; invoiceId: string; alreadyPaid: boolean }
  | { effect: "refund"; paymentId: string; status: Payment["status"]; eventPaid: boolean | null }
  | { effect: "receipt-refund"; receiptId: string; amountRefunded: number }
  | { effect: "membership"; userId: string; subscriptionId: string | null; status: string }
  | { effect: "membership-invoice"; userId: string; invoiceId: string; alreadyRecorded: boolean }
  | { effect: "checkout-abandoned"; kind: string; id: string }
  | GiftContributionEffect
  | TreeContributionEffect
  | PostcardEffect
  | MailOrderPaidEffect;

export const ignored = (reason: string): PaymentEffect => ({ effect: "ignored", reason });
