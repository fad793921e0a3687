import Stripe from "stripe";
import { db, type Db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { findLocalPaymentObject, listLocalPaymentObjects, saveLocalPaymentObject, type StoredObject } from "~/models/local-payment.server";
import { localPaymentsActive } from "../provider.server";
import { cancelSubscription, currentCheckoutSession } from "./api.server";
import { judgeCard } from "./cards";
import { localPaymentKeys } from "./keys.server";
import { createObject, newId, nowSeconds, PRIVATE, queueDeliveries, recordEvents, type PendingEvent } from "./objects.server";

// The local payment service's hosted pages (the checkout page and the billing portal) and the
// delivery of its events to our webhook route: what Stripe's own pages and webhooks do.

interface SessionLine {
  description: string;
  quantity: number;
  amount_total: number;
  price: { unit_amount: number; recurring: { interval: string } | null };
}

interface SessionPrivate {
  lines: SessionLine[];
  paymentIntentMetadata: Record<string, string>;
  subscriptionMetadata: Record<string, string>;
}

export interface LocalCheckoutView {
  id: string;
  status: "open" | "complete" | "expired";
  mode: "payment" | "subscription";
  amountTotal: number;
  currency: string;
  lines: { name: string; quantity: number; unitAmount: number; amount: number }[];
  /** The membership's period, for a subscription. */
  interval: string | null;
  /** The payer's e-mail when the app gave it (then it is not asked for). */
  email: string | null;
  cancelUrl: string | null;
  /** Where the payer goes once it is paid. */
  successUrl: string;
}

const successUrlOf = (session: StoredObject) => String(session.success_url).replaceAll("{CHECKOUT_SESSION_ID}", session.id);

/** The payer's e-mail the session already knows: the one it was given, or its customer's. */
async function knownEmail(tx: Db, session: StoredObject) {
  if (session.customer_email) return String(session.customer_email);
  const customer = session.customer ? await findLocalPaymentObject(tx, String(session.customer), "customer") : null;
  return (customer?.email as string | null | undefined) ?? null;
}

function checkoutView(session: StoredObject, email: string | null): LocalCheckoutView {
  const kept = session[PRIVATE] as SessionPrivate;
  return {
    id: session.id,
    status: session.status as LocalCheckoutView["status"],
    mode: session.mode as LocalCheckoutView["mode"],
    amountTotal: Number(session.amount_total),
    currency: String(session.currency),
    lines: kept.lines.map((line) => ({
      name: line.description,
      quantity: line.quantity,
      unitAmount: line.price.unit_amount,
      amount: line.amount_total,
    })),
    interval: kept.lines[0]?.price.recurring?.interval ?? null,
    email,
    cancelUrl: (session.cancel_url as string | null) ?? null,
    successUrl: successUrlOf(session),
  };
}

/** The checkout page's session; null when there is none (or the local service is off). */
export async function localCheckoutSession(id: string): Promise<LocalCheckoutView | null> {
  if (!localPaymentsActive()) return null;
  const session = await currentCheckoutSession(db(), id);
  return session ? checkoutView(session, await knownEmail(db(), session)) : null;
}

export type LocalPayOutcome =
  { ok: true; redirectTo: string } | { ok: false; field?: "email" | "cardNumber" | "expiry" | "cvc"; message: string } | null;

const addInterval = (seconds: number, interval: string) => {
  const date = new Date(seconds * 1000);
  if (interval === "year") date.setUTCFullYear(date.getUTCFullYear() + 1);
  else if (interval === "month") date.setUTCMonth(date.getUTCMonth() + 1);
  else if (interval === "week") date.setUTCDate(date.getUTCDate() + 7);
  else date.setUTCDate(date.getUTCDate() + 1);
  return Math.floor(date.getTime() / 1000);
};

/** The objects a paid session makes (customer, payment, subscription and invoice) and the events about them. */
async function completeSession(tx: Db, session: StoredObject, payer: { email: string; brand: string; last4: string }) {
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
  Object.assign(session, { status: "complete", payment_status: "paid", customer: customerId, customer_details: { email } });
  await saveLocalPaymentObject(tx, session);
  events.push({ type: "checkout.session.completed", object: session });
  return events;
}

/**
 * Pays an open session with a test card: declined cards answer why and change nothing; a paid
 * session makes its objects and events, queues their delivery to our webhook route and sends the
 * payer to the session's success URL. Paying an already paid session (a second press) only
 * sends the payer on again.
 */
export async function payLocalCheckout(
  id: string,
  input: { email?: string; cardNumber: string; expiry: string; cvc: string },
): Promise<LocalPayOutcome> {
  if (!localPaymentsActive()) return null;
  const card = judgeCard(input, new Date());
  const result = await db().transaction(async (tx) => {
    const session = await currentCheckoutSession(tx, id, { lock: true });
    if (!session) return null;
    if (session.status === "complete") return { outcome: { ok: true as const, redirectTo: successUrlOf(session) }, eventIds: [] };
    if (session.status === "expired") {
      return { outcome: { ok: false as const, message: "This payment page has expired. Go back and start again." }, eventIds: [] };
    }
    const email = (await knownEmail(tx, session)) ?? input.email;
    if (!email) return { outcome: { ok: false as const, field: "email" as const, message: "Enter your e-mail." }, eventIds: [] };
    if (!card.ok) return { outcome: { ok: false as const, field: card.field, message: card.message }, eventIds: [] };
    const events = await completeSession(tx, session, { email, brand: card.brand, last4: card.last4 });
    return { outcome: { ok: true as const, redirectTo: successUrlOf(session) }, eventIds: await recordEvents(tx, events) };
  });
  if (!result) return null;
  await queueDeliveries(result.eventIds);
  return result.outcome;
}

export interface LocalPortalView {
  id: string;
  email: string | null;
  returnUrl: string | null;
  memberships: { id: string; name: string; amount: number; currency: string; interval: string; status: string; renewsAt: number }[];
}

async function portalParts(tx: Db, id: string) {
  const portal = await findLocalPaymentObject(tx, id, "billing_portal.session");
  if (!portal) return null;
  const customer = await findLocalPaymentObject(tx, String(portal.customer), "customer");
  return { portal, customer };
}

/** The billing portal: the customer's memberships, which they may cancel. */
export async function localPortal(id: string): Promise<LocalPortalView | null> {
  if (!localPaymentsActive()) return null;
  const parts = await portalParts(db(), id);
  if (!parts) return null;
  const subscriptions = await listLocalPaymentObjects(db(), "subscription", { customer: parts.portal.customer });
  return {
    id,
    email: (parts.customer?.email as string | null) ?? null,
    returnUrl: (parts.portal.return_url as string | null) ?? null,
    memberships: subscriptions.map((subscription) => {
      const price = (
        subscription.items as {
          data: {
            price: { unit_amount: number; currency?: string; recurring: { interval: string } | null; product_data?: { name?: string } };
          }[];
        }
      ).data[0]!.price;
      return {
        id: subscription.id,
        name: price.product_data?.name ?? "Membership",
        amount: price.unit_amount,
        currency: price.currency ?? "usd",
        interval: price.recurring?.interval ?? "month",
        status: String(subscription.status),
        renewsAt: Number(subscription.current_period_end),
      };
    }),
  };
}

/** Cancels one of the portal's customer's memberships now; false when it is not theirs. */
export async function cancelFromLocalPortal(portalId: string, subscriptionId: string): Promise<boolean> {
  if (!localPaymentsActive()) return false;
  const eventIds = await db().transaction(async (tx) => {
    const parts = await portalParts(tx, portalId);
    const subscription = await findLocalPaymentObject(tx, subscriptionId, "subscription", { lock: true });
    if (!parts || !subscription || subscription.customer !== parts.portal.customer) return null;
    return recordEvents(tx, await cancelSubscription(tx, subscription));
  });
  if (!eventIds) return false;
  await queueDeliveries(eventIds);
  return true;
}

/**
 * Sends one event to our webhook route as Stripe does: a JSON body signed with the webhook secret
 * in a `Stripe-Signature` header. Anything but a 2xx throws, so the job is tried again later.
 */
export async function deliverLocalPaymentEvent(eventId: string) {
  // Stripe took over since the event was made: it can no longer be verified, nor should it be.
  if (!localPaymentsActive()) return;
  const event = await findLocalPaymentObject(db(), eventId, "event");
  if (!event) throw new Error(`There is no local payment event ${eventId}.`);
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: localPaymentKeys().webhookSecret });
  const response = await fetch(`${env().APP_URL}/stripe/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature },
    body: payload,
    signal: AbortSignal.timeout(30_000),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`The webhook route answered ${response.status} to ${String(event.type)} ${eventId}.`);
}
