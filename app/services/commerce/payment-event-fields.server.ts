import type { Payment } from "drizzle/schema";
import { isUuid } from "~/domain/uuid";
import type { GiftContributionEffect } from "~/services/gift-cards/contribution-effects.server";
import type { MailOrderPaidEffect } from "~/services/mail-orders/mail-order-effect";
import type { PostcardEffect } from "~/services/postcards/postcard-effects.server";
import type { TreeContributionEffect } from "~/services/trees/tree-contribution-effects.server";

// Reading a payment event's loosely typed fields, and what applying one came to
// (payment-effects.server.ts, membership-effects.server.ts).

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

export const text = (value: unknown) => (typeof value === "string" && value ? value : null);
export const whole = (value: unknown) => (typeof value === "number" && Number.isInteger(value) ? value : null);
export const record = (value: unknown) =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
/** Our ids are UUIDs; anything else in an event's metadata names nothing of ours. */
export const ourId = (value: unknown) => (isUuid(value) ? value : null);
/** Stripe sends an expandable field as its id, or as the object with an `id`. */
export const idOf = (value: unknown) => text(value) ?? text(record(value).id);
