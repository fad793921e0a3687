import type { Db } from "~/lib/db.server";
import type { StoredObject } from "~/models/local-payment.server";
import { createObject, newId } from "./objects.server";

// The money objects of the local payment service, as Stripe makes them: a card payment (a payment
// intent and its charge, which refunds act on) and a subscription's paid invoice. Paying a checkout
// page and renewing a membership both make them.

/** The card a payment was made with, as Stripe describes it. */
export interface CardUsed {
  brand: string;
  last4: string;
}

/** `seconds` moved on by one `interval`, in UTC calendar terms (a month from 31 January is 3 March, as in JavaScript). */
export function addInterval(seconds: number, interval: string) {
  const date = new Date(seconds * 1000);
  if (interval === "year") date.setUTCFullYear(date.getUTCFullYear() + 1);
  else if (interval === "month") date.setUTCMonth(date.getUTCMonth() + 1);
  else if (interval === "week") date.setUTCDate(date.getUTCDate() + 7);
  else date.setUTCDate(date.getUTCDate() + 1);
  return Math.floor(date.getTime() / 1000);
}

/** A succeeded card payment: its payment intent and charge, made at `at`. */
export async function createCardPayment(
  tx: Db,
  input: {
    amount: number;
    currency: string;
    customerId: string;
    email: string;
    card: CardUsed;
    metadata: Record<string, string>;
    at: number;
  },
) {
  const intentId = newId("pi");
  const chargeId = newId("ch");
  const { amount, currency, customerId, metadata, at } = input;
  await createObject(tx, {
    id: intentId,
    object: "payment_intent",
    amount,
    amount_received: amount,
    currency,
    customer: customerId,
    status: "succeeded",
    latest_charge: chargeId,
    metadata,
    created: at,
    livemode: false,
  });
  await createObject(tx, {
    id: chargeId,
    object: "charge",
    amount,
    amount_captured: amount,
    amount_refunded: 0,
    currency,
    customer: customerId,
    payment_intent: intentId,
    paid: true,
    captured: true,
    refunded: false,
    status: "succeeded",
    billing_details: { email: input.email },
    payment_method_details: { type: "card", card: { brand: input.card.brand, last4: input.card.last4 } },
    metadata,
    created: at,
    livemode: false,
  });
  return { intentId, chargeId };
}

/**
 * A subscription's invoice for one period, paid by a card payment: `subscription_create` for the
 * first, `subscription_cycle` for each renewal, as Stripe names them.
 */
export async function createPaidSubscriptionInvoice(
  tx: Db,
  input: {
    id?: string;
    subscriptionId: string;
    customerId: string;
    email: string;
    amount: number;
    currency: string;
    description: string;
    metadata: Record<string, string>;
    payment: { intentId: string; chargeId: string };
    period: { start: number; end: number };
    billingReason: "subscription_create" | "subscription_cycle";
    at: number;
  },
): Promise<StoredObject> {
  const { amount, currency, period, at } = input;
  return createObject(tx, {
    id: input.id ?? newId("in"),
    object: "invoice",
    status: "paid",
    customer: input.customerId,
    customer_email: input.email,
    subscription: input.subscriptionId,
    parent: { type: "subscription_details", subscription_details: { subscription: input.subscriptionId, metadata: input.metadata } },
    billing_reason: input.billingReason,
    amount_due: amount,
    amount_paid: amount,
    amount_remaining: 0,
    subtotal: amount,
    tax: 0,
    currency,
    payment_intent: input.payment.intentId,
    charge: input.payment.chargeId,
    period_start: period.start,
    period_end: period.end,
    status_transitions: { paid_at: at },
    lines: {
      object: "list",
      data: [{ id: newId("il"), object: "line_item", amount, currency, description: input.description, period }],
    },
    created: at,
    livemode: false,
  });
}
