import { enqueue } from "~/jobs/queue.server";
import { db, type Db } from "~/lib/db.server";
import { findLocalPaymentObject, saveLocalPaymentObject, type StoredObject } from "~/models/local-payment.server";
import { localPaymentsActive } from "../provider.server";
import { addInterval, createCardPayment, createPaidSubscriptionInvoice, type CardUsed } from "./card-payments.server";
import { nowSeconds, PRIVATE, queueDeliveries, recordEvents, type PendingEvent } from "./objects.server";

// A subscription's life in the local payment service, as Stripe leads it: cancelled to end with
// the period paid for (and resumed before then), or ended at once; and at each period's end either
// renewed (a new paid invoice on the same card) or ended. Time is the service's clock: the real one,
// through a job queued for each period's end, or a test clock the customer was made on, moved by
// advancing it (test-clocks.server.ts), as with Stripe's test clocks.

/** What the service keeps of a subscription for itself: the card its renewals are charged to. */
export interface SubscriptionPrivate {
  card: CardUsed;
  email: string;
}

interface SubscriptionPrice {
  unit_amount: number;
  currency?: string;
  recurring: { interval: string } | null;
  product_data?: { name?: string };
}

/** The subscription's one price (our memberships have one item). */
export function priceOf(subscription: StoredObject): SubscriptionPrice {
  return (subscription.items as { data: { price: SubscriptionPrice }[] }).data[0]!.price;
}

/** The customer's test clock, when it was made on one. */
async function clockOf(tx: Db, customerId: string) {
  const customer = await findLocalPaymentObject(tx, customerId, "customer");
  const clockId = customer?.test_clock as string | null | undefined;
  return clockId ? findLocalPaymentObject(tx, clockId, "test_helpers.test_clock") : null;
}

/** Now, for a customer: its test clock's frozen time when it has one, else the real time. */
export async function customerNow(tx: Db, customerId: string) {
  const clock = await clockOf(tx, customerId);
  return clock ? Number(clock.frozen_time) : nowSeconds();
}

/**
 * Queues the job that ends the subscription's current period on the real clock. A customer on a
 * test clock has none: its periods end when its clock is advanced past them.
 */
export async function schedulePeriodEnd(tx: Db, subscription: StoredObject) {
  if (await clockOf(tx, String(subscription.customer))) return;
  const end = Number(subscription.current_period_end);
  await enqueue(
    "local-subscription-period-end",
    { subscriptionId: subscription.id },
    { singletonKey: `local-subscription-period-end:${subscription.id}:${end}`, startAfter: new Date((end + 1) * 1000), db: tx },
  );
}

const isLive = (subscription: StoredObject) => subscription.status !== "canceled" && subscription.status !== "incomplete_expired";

function setPeriod(subscription: StoredObject, start: number, end: number) {
  Object.assign(subscription, { current_period_start: start, current_period_end: end });
  const item = (subscription.items as { data: Record<string, unknown>[] }).data[0];
  if (item) Object.assign(item, { current_period_start: start, current_period_end: end });
}

/**
 * Cancels the subscription at its period's end (`cancel`), or takes that back: Stripe's
 * `cancel_at_period_end`, with `cancel_at` the moment it will end. Its `updated` event says so.
 */
export async function setCancelAtPeriodEnd(tx: Db, subscription: StoredObject, cancel: boolean): Promise<PendingEvent[]> {
  if (!isLive(subscription) || subscription.cancel_at_period_end === cancel) return [];
  const now = await customerNow(tx, String(subscription.customer));
  const previousAttributes = {
    cancel_at_period_end: subscription.cancel_at_period_end ?? false,
    cancel_at: subscription.cancel_at ?? null,
    canceled_at: subscription.canceled_at ?? null,
  };
  Object.assign(
    subscription,
    cancel
      ? {
          cancel_at_period_end: true,
          cancel_at: subscription.current_period_end,
          canceled_at: now,
          cancellation_details: { reason: "cancellation_requested" },
        }
      : { cancel_at_period_end: false, cancel_at: null, canceled_at: null, cancellation_details: { reason: null } },
  );
  await saveLocalPaymentObject(tx, subscription);
  return [{ type: "customer.subscription.updated", object: subscription, previousAttributes }];
}

/** Ends a subscription now; the `customer.subscription.deleted` event says so. */
export async function cancelSubscription(tx: Db, subscription: StoredObject): Promise<PendingEvent[]> {
  if (!isLive(subscription)) return [];
  const now = await customerNow(tx, String(subscription.customer));
  Object.assign(subscription, {
    status: "canceled",
    canceled_at: subscription.canceled_at ?? now,
    ended_at: now,
    cancel_at_period_end: false,
  });
  await saveLocalPaymentObject(tx, subscription);
  return [{ type: "customer.subscription.deleted", object: subscription }];
}

/** The card and e-mail a renewal is charged to: those kept with it, else its last invoice's charge's. */
async function renewalCard(tx: Db, subscription: StoredObject): Promise<SubscriptionPrivate> {
  const kept = subscription[PRIVATE] as SubscriptionPrivate | undefined;
  if (kept?.card) return kept;
  const invoice = await findLocalPaymentObject(tx, String(subscription.latest_invoice), "invoice");
  const charge = invoice ? await findLocalPaymentObject(tx, String(invoice.charge), "charge") : null;
  const card = (charge?.payment_method_details as { card?: CardUsed } | undefined)?.card;
  return { card: card ?? { brand: "visa", last4: "4242" }, email: String(invoice?.customer_email ?? "") };
}

/** One period's end: the subscription ends there when it was cancelled to, else it renews on its card. */
async function endPeriod(tx: Db, subscription: StoredObject): Promise<PendingEvent[]> {
  const end = Number(subscription.current_period_end);
  const cancelAt = subscription.cancel_at == null ? null : Number(subscription.cancel_at);
  if (subscription.cancel_at_period_end === true || (cancelAt !== null && cancelAt <= end)) {
    Object.assign(subscription, { status: "canceled", ended_at: cancelAt ?? end, cancel_at_period_end: false });
    await saveLocalPaymentObject(tx, subscription);
    return [{ type: "customer.subscription.deleted", object: subscription }];
  }
  const price = priceOf(subscription);
  const kept = await renewalCard(tx, subscription);
  const customerId = String(subscription.customer);
  const metadata = (subscription.metadata ?? {}) as Record<string, string>;
  const currency = price.currency ?? "usd";
  const nextEnd = addInterval(end, price.recurring?.interval ?? "month");
  const previousAttributes = { current_period_start: subscription.current_period_start, current_period_end: end };
  const payment = await createCardPayment(tx, {
    amount: price.unit_amount,
    currency,
    customerId,
    email: kept.email,
    card: kept.card,
    metadata,
    at: end,
  });
  const invoice = await createPaidSubscriptionInvoice(tx, {
    subscriptionId: subscription.id,
    customerId,
    email: kept.email,
    amount: price.unit_amount,
    currency,
    description: price.product_data?.name ?? "Membership",
    metadata,
    payment,
    period: { start: end, end: nextEnd },
    billingReason: "subscription_cycle",
    at: end,
  });
  setPeriod(subscription, end, nextEnd);
  subscription.latest_invoice = invoice.id;
  await saveLocalPaymentObject(tx, subscription);
  // As Stripe tells a renewal: the subscription moves to its new period, then its invoice is paid.
  return [
    { type: "customer.subscription.updated", object: structuredClone(subscription), previousAttributes },
    { type: "invoice.paid", object: invoice },
  ];
}

/** Every period end of the subscription up to `now`, in order: renewals, or its end. */
export async function runPeriodEnds(tx: Db, subscription: StoredObject, now: number): Promise<PendingEvent[]> {
  const events: PendingEvent[] = [];
  while (isLive(subscription) && Number(subscription.current_period_end) <= now) events.push(...(await endPeriod(tx, subscription)));
  return events;
}

/**
 * The period-end job of a subscription on the real clock: what is due is done, and the next
 * period's end is queued; a job run early (or for a period already renewed) waits for the current one.
 */
export async function endLocalSubscriptionPeriod(subscriptionId: string) {
  if (!localPaymentsActive()) return;
  const eventIds = await db().transaction(async (tx) => {
    const subscription = await findLocalPaymentObject(tx, subscriptionId, "subscription", { lock: true });
    if (!subscription || !isLive(subscription)) return [];
    const events = await runPeriodEnds(tx, subscription, await customerNow(tx, String(subscription.customer)));
    if (isLive(subscription)) await schedulePeriodEnd(tx, subscription);
    return recordEvents(tx, events);
  });
  await queueDeliveries(eventIds);
}
