import type { Db } from "~/lib/db.server";
import { saveLocalPaymentObject, type StoredObject } from "~/models/local-payment.server";
import { addInterval, createCardPayment, createPaidSubscriptionInvoice, type CardUsed } from "./card-payments.server";
import { redeemCoupon } from "./coupons.server";
import { createObject, newId, nowSeconds, PRIVATE, type PendingEvent } from "./objects.server";
import { customerNow, schedulePeriodEnd, type SubscriptionPrivate } from "./subscriptions.server";

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

/** The objects a paid session makes (customer, payment, subscription and invoice) and the events about them. */
export async function completeSession(tx: Db, session: StoredObject, payer: { email: string } & CardUsed) {
  const kept = session[PRIVATE] as SessionPrivate;
  const events: PendingEvent[] = [];
  const amount = Number(session.amount_total);
  const currency = String(session.currency);
  const { email } = payer;
  const card = { brand: payer.brand, last4: payer.last4 };

  let customerId = session.customer as string | null;
  if (!customerId) {
    customerId = newId("cus");
    await createObject(tx, { id: customerId, object: "customer", email, name: null, metadata: {}, created: nowSeconds(), livemode: false });
  }
  // A customer on a test clock lives at the clock's time: its subscription starts then.
  const now = await customerNow(tx, customerId);
  const subscriptionMode = session.mode === "subscription";
  const metadata = subscriptionMode ? kept.subscriptionMetadata : kept.paymentIntentMetadata;
  const payment = await createCardPayment(tx, { amount, currency, customerId, email, card, metadata, at: now });

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
      cancel_at: null,
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
      // Renewals charge the card the first period was paid with.
      [PRIVATE]: { card, email } satisfies SubscriptionPrivate,
    });
    const invoice = await createPaidSubscriptionInvoice(tx, {
      id: invoiceId,
      subscriptionId,
      customerId,
      email,
      amount,
      currency,
      description: line.description,
      metadata,
      payment,
      period: { start: now, end: periodEnd },
      billingReason: "subscription_create",
      at: now,
    });
    await schedulePeriodEnd(tx, subscription);
    // As with Stripe's Checkout: the subscription is made incomplete, then becomes active once paid.
    events.push(
      { type: "customer.subscription.created", object: { ...subscription, status: "incomplete" } },
      { type: "customer.subscription.updated", object: subscription, previousAttributes: { status: "incomplete" } },
      { type: "invoice.paid", object: invoice },
    );
    Object.assign(session, { subscription: subscriptionId, invoice: invoiceId });
  } else {
    session.payment_intent = payment.intentId;
  }
  if (kept.discount) await redeemCoupon(tx, kept.discount.couponId);
  Object.assign(session, { status: "complete", payment_status: "paid", customer: customerId, customer_details: { email } });
  await saveLocalPaymentObject(tx, session);
  events.push({ type: "checkout.session.completed", object: session });
  return events;
}
