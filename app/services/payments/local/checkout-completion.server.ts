import type { Db } from "~/lib/db.server";
import { saveLocalPaymentObject, type StoredObject } from "~/models/local-payment.server";
import { redeemCoupon } from "./coupons.server";
import { createObject, newId, nowSeconds, PRIVATE, type PendingEvent } from "./objects.server";

// What paying on the local checkout page makes, as Stripe makes it: the payment intent and charge,
// or the customer's subscription and its first invoice, and the events that say so.

interface SessionLine {
  description: string;
  quantity: number;
  amount_total: number;
  price: { unit_amount: number; recurring: { interval: string } | null };
}

export interface SessionPrivate {
  lines: SessionLine[];
  /** The coupon in its `discounts`, and what it takes off the lines' sum (sessions made before coupons have none). */
  discount?: { couponId: string; name: string; amount: number } | null;
  paymentIntentMetadata: Record<string, string>;
  subscriptionMetadata: Record<string, string>;
}

const addInterval = (seconds: number, interval: string) => {
  const date = new Date(seconds * 1000);
  if (interval === "year") date.setUTCFullYear(date.getUTCFullYear() + 1);
  else if (interval === "month") date.setUTCMonth(date.getUTCMonth() + 1);
  else if (interval === "week") date.setUTCDate(date.getUTCDate() + 7);
  else date.setUTCDate(date.getUTCDate() + 1);
  return Math.floor(date.getTime() / 1000);
};

/** The objects a paid session makes (customer, payment, subscription and invoice) and the events about them. */
export async function completeSession(tx: Db, session: StoredObject, payer: { email: string; brand: string; last4: string }) {
  const kept = session[PRIVATE] as SessionPrivate;
  const now = nowSeconds();
  const events: PendingEvent[] = [];
  const amount = Number(session.amount_total);
  const currency = String(session.currency);
  const { email } = payer;

  let customerId = session.customer as string | null;
  if (!customerId) {
    customerId = newId("cus");
    await createObject(tx, { id: customerId, object: "customer", email, name: null, metadata: {}, created: now, livemode: false });
  }
  const subscriptionMode = session.mode === "subscription";
  const metadata = subscriptionMode ? kept.subscriptionMetadata : kept.paymentIntentMetadata;
  const intentId = newId("pi");
  const chargeId = newId("ch");
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
    created: now,
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
    billing_details: { email },
    payment_method_details: { type: "card", card: { brand: payer.brand, last4: payer.last4 } },
    metadata,
    created: now,
    livemode: false,
  });

  if (subscriptionMode) {
    const line = kept.lines[0]!;
    const periodEnd = addInterval(now, line.price.recurring?.interval ?? "month");
    const subscriptionId = newId("sub");
    const invoiceId = newId("in");
    const subscription = await createObject(tx, {
      id: subscriptionId,
      object: "subscription",
      status: "active",
      customer: customerId,
      metadata,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      collection_method: "charge_automatically",
      created: now,
      start_date: now,
      current_period_start: now,
      current_period_end: periodEnd,
      latest_invoice: invoiceId,
      items: {
        object: "list",
        data: [
          {
            id: newId("si"),
            object: "subscription_item",
            quantity: 1,
            price: line.price,
            current_period_start: now,
            current_period_end: periodEnd,
          },
        ],
      },
      livemode: false,
    });
    const invoice = await createObject(tx, {
      id: invoiceId,
      object: "invoice",
      status: "paid",
      customer: customerId,
      customer_email: email,
      subscription: subscriptionId,
      parent: { type: "subscription_details", subscription_details: { subscription: subscriptionId, metadata } },
      billing_reason: "subscription_create",
      amount_due: amount,
      amount_paid: amount,
      amount_remaining: 0,
      currency,
      payment_intent: intentId,
      charge: chargeId,
      period_start: now,
      period_end: periodEnd,
      status_transitions: { paid_at: now },
      lines: {
        object: "list",
        data: [
          { id: newId("il"), object: "line_item", amount, currency, description: line.description, period: { start: now, end: periodEnd } },
        ],
      },
      created: now,
      livemode: false,
    });
    // As with Stripe's Checkout: the subscription is made incomplete, then becomes active once paid.
    events.push(
      { type: "customer.subscription.created", object: { ...subscription, status: "incomplete" } },
      { type: "customer.subscription.updated", object: subscription, previousAttributes: { status: "incomplete" } },
      { type: "invoice.paid", object: invoice },
    );
    Object.assign(session, { subscription: subscriptionId, invoice: invoiceId });
  } else {
    session.payment_intent = intentId;
  }
  if (kept.discount) await redeemCoupon(tx, kept.discount.couponId);
  Object.assign(session, { status: "complete", payment_status: "paid", customer: customerId, customer_details: { email } });
  await saveLocalPaymentObject(tx, session);
  events.push({ type: "checkout.session.completed", object: session });
  return events;
}
