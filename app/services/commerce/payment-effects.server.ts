import type { Payment, User } from "drizzle/schema";
import { BASE_PRODUCT_KEY } from "~/domain/commerce/catalogue";
import { membershipPlan } from "~/domain/commerce/memberships";
import type { PaymentEvent } from "~/integrations/payments/payments-port";
import { enqueue } from "~/jobs/queue.server";
import type { Db } from "~/lib/db.server";
import { lockCart } from "~/models/cart.server";
import { setEventPaid } from "~/models/event.server";
import {
  findOrInsertPayment,
  findOrInsertProviderInvoice,
  findPaymentByProviderId,
  findInvoiceOfPayment,
  findPaymentOfCart,
  setPaymentRefund,
} from "~/models/payment.server";
import { findUserById, findUserByPaymentCustomerId, findUserBySubscriptionId, lockUser, updateUser } from "~/models/user.server";
import { giftContributionPaid, type GiftContributionEffect } from "~/services/gift-cards/contribution-effects.server";
import { loadCartState } from "./cart-state.server";
import { cartFromMetadata } from "./checkout.server";
import { recordSale } from "./sales.server";

// What a verified payment event does to our records (docs/decisions/018-what-payment-unlocks.md).
// The webhook route records the event's id and calls applyPaymentEvent inside that same
// transaction; every effect here is also safe to apply twice on its own.

/** What an event came to, for the webhook's log and tests. */
export type PaymentEffect =
  | { effect: "cart-paid"; cartId: string; invoiceId: string; alreadyPaid: boolean }
  | { effect: "refund"; paymentId: string; status: Payment["status"]; eventPaid: boolean | null }
  | { effect: "membership"; userId: string; subscriptionId: string | null; status: string }
  | { effect: "membership-invoice"; userId: string; invoiceId: string; alreadyRecorded: boolean }
  | GiftContributionEffect;

const ignored = (reason: string): PaymentEffect => ({ effect: "ignored", reason });

const text = (value: unknown) => (typeof value === "string" && value ? value : null);
const whole = (value: unknown) => (typeof value === "number" && Number.isInteger(value) ? value : null);
const record = (value: unknown) => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
/** Stripe sends an expandable field as its id, or as the object with an `id`. */
/** Our ids are UUIDs; anything else in an event's metadata names nothing of ours. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ourId = (value: unknown) => {
  const found = text(value);
  return found && UUID.test(found) ? found : null;
};
const idOf = (value: unknown) => text(value) ?? text(record(value).id);

/** Statuses in which a subscription still makes its owner a member (Stripe retries a failed renewal). */
const MEMBER_STATUSES = new Set(["active", "trialing", "past_due"]);

/**
 * Applies a verified payment event inside `tx` (the webhook's transaction, which also records the
 * event's id): "applied" when it changed something of ours, "ignored" when it had nothing to change.
 */
export async function applyPaymentEvent(event: PaymentEvent, tx: Db, provider = "stripe"): Promise<"applied" | "ignored"> {
  return (await paymentEffect(event, tx, provider)).effect === "ignored" ? "ignored" : "applied";
}

/**
 * What a verified payment event does inside `tx`, in detail. `provider` names the payment service
 * that sent it (its payment ids are unique within that service).
 */
export async function paymentEffect(event: PaymentEvent, tx: Db, provider = "stripe"): Promise<PaymentEffect> {
  const object = event.data.object;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      // A contribution to a group gift card has its own ledger (docs/decisions/023-group-gift-cards.md).
      if (record(object.metadata).kind === "gift-contribution") return giftContributionPaid(object, tx, provider);
      return cartPaid(object, tx, provider);
    case "charge.refunded":
      return chargeRefunded(object, tx);
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return subscriptionChanged(event, tx);
    case "invoice.payment_failed":
      return renewalFailed(event, tx);
    case "invoice.paid":
      return membershipInvoicePaid(event, tx, provider);
    default:
      return ignored(`${event.type} changes nothing here`);
  }
}

async function cartPaid(session: Record<string, unknown>, tx: Db, provider: string): Promise<PaymentEffect> {
  const metadata = record(session.metadata);
  if (metadata.kind !== "cart") return ignored("not a cart's checkout");
  // A payment method that settles later (a bank debit) completes the session unpaid: its
  // async_payment_succeeded event comes when the money does.
  if (session.payment_status !== undefined && session.payment_status !== "paid") return ignored("the session is not paid yet");
  const cartId = ourId(metadata.cartId);
  const paymentIntent = idOf(session.payment_intent);
  const amount = whole(session.amount_total);
  const currency = text(session.currency);
  if (!cartId || !paymentIntent || amount === null || !currency) return ignored("the session lacks its cart, payment or amount");
  const locked = await lockCart(tx, cartId);
  if (!locked) return ignored(`there is no cart ${cartId}`);
  const customerId = idOf(session.customer);
  if (customerId) await rememberCustomer(tx, locked.userId, customerId);
  const payment = {
    provider,
    providerPaymentId: paymentIntent,
    providerSessionId: text(session.id),
    providerCustomerId: customerId,
    amount,
    currency: currency.toLowerCase(),
    eventId: locked.eventId,
    userId: locked.userId,
  };
  const earlier = locked.status === "paid" ? await findPaymentOfCart(tx, locked.id) : null;
  if (locked.status === "paid" && earlier?.providerPaymentId !== paymentIntent) {
    // Paid twice (two tabs, or after a free checkout): the second payment is kept, unattached, to be refunded.
    await findOrInsertPayment(tx, { ...payment, cartId: null });
    console.warn(`cart ${locked.id} was already settled; payment ${paymentIntent} is a second one and should be refunded`);
    return ignored("the cart was already settled by another payment");
  }
  const recorded = await findOrInsertPayment(tx, { ...payment, cartId: locked.id });
  // What was paid for is the cart as it was when checkout started (the metadata says which
  // products, code and country): it may have changed since, in another tab.
  const sold = cartFromMetadata(metadata);
  const state = await loadCartState({ ...locked, status: "paid", promoCodeId: sold.promoCodeId, billingCountry: sold.country }, tx, {
    products: sold.products,
  });
  const sale = await recordSale(tx, { state, payment: recorded.payment, paidAt: new Date() });
  if (sale.created && amount !== state.pricing.totals.total) {
    console.warn(`cart ${locked.id}: paid ${amount} ${currency}, priced at ${state.pricing.totals.total}`);
  }
  return { effect: "cart-paid", cartId: locked.id, invoiceId: sale.invoice.id, alreadyPaid: !sale.created };
}

async function rememberCustomer(tx: Db, userId: string, customerId: string) {
  const user = await findUserById(tx, userId);
  if (user && !user.paymentCustomerId) await updateUser(tx, userId, { paymentCustomerId: customerId });
}

async function chargeRefunded(charge: Record<string, unknown>, tx: Db): Promise<PaymentEffect> {
  const paymentIntent = idOf(charge.payment_intent);
  if (!paymentIntent) return ignored("the charge names no payment");
  const payment = await findPaymentByProviderId(tx, paymentIntent);
  if (!payment) return ignored(`no payment ${paymentIntent} here`);
  // The refunded total so far comes with every event: applying it again, or out of order, ends the same.
  const refunded = Math.max(payment.amountRefunded, whole(charge.amount_refunded) ?? 0);
  const full = charge.refunded === true || refunded >= payment.amount;
  const status: Payment["status"] = full ? "refunded" : refunded > 0 ? "partially_refunded" : "paid";
  await setPaymentRefund(tx, payment.id, refunded, status);
  // A full refund takes back what payment unlocked; a partial one (a goodwill gesture) leaves it.
  // A later purchase (add-ons bought once the Chorus was paid for) never sold the Chorus, so its
  // refund takes back only what it sold (no longer counted among the event's purchases).
  let eventPaid: boolean | null = null;
  if (full && payment.eventId && (await soldTheChorus(tx, payment.id))) {
    await setEventPaid(tx, payment.eventId, false);
    eventPaid = false;
  }
  return { effect: "refund", paymentId: payment.id, status, eventPaid };
}

/** Whether a payment paid for the Chorus itself: its invoice has the Chorus's line (a payment with no invoice is taken to have). */
async function soldTheChorus(tx: Db, paymentId: string) {
  const invoice = await findInvoiceOfPayment(tx, paymentId);
  return !invoice || invoice.lines.some((line) => line.key === BASE_PRODUCT_KEY);
}

async function accountOf(tx: Db, ids: { userId: string | null; customerId: string | null; subscriptionId: string | null }) {
  let user: User | null = null;
  if (ids.userId && /^[0-9a-f-]{36}$/i.test(ids.userId)) user = await findUserById(tx, ids.userId);
  if (!user && ids.customerId) user = await findUserByPaymentCustomerId(tx, ids.customerId);
  if (!user && ids.subscriptionId) user = await findUserBySubscriptionId(tx, ids.subscriptionId);
  return user ? lockUser(tx, user.id) : null;
}

/** An event older than the last one applied to this account changes nothing (events can arrive out of order). */
const isStale = (user: User, event: PaymentEvent) =>
  !!user.membershipChangedAt && user.membershipChangedAt.getTime() > event.created * 1000;

async function subscriptionChanged(event: PaymentEvent, tx: Db): Promise<PaymentEffect> {
  const subscription = event.data.object;
  const subscriptionId = text(subscription.id);
  const customerId = idOf(subscription.customer);
  const metadata = record(subscription.metadata);
  const user = await accountOf(tx, { userId: ourId(metadata.userId), customerId, subscriptionId });
  if (!user || !subscriptionId) return ignored("no account for this subscription");
  if (isStale(user, event)) return ignored("an older subscription event");
  const status = event.type === "customer.subscription.deleted" ? "canceled" : (text(subscription.status) ?? "active");
  const member = MEMBER_STATUSES.has(status);
  // Another subscription of the same account ending leaves the current one be.
  if (!member && user.subscriptionId && user.subscriptionId !== subscriptionId) return ignored("not the account's current subscription");
  // "incomplete" only ever comes before a subscription's first payment: told late (in the same
  // second as its "active", so not older by the clock), it must not undo the membership.
  if (status === "incomplete" && user.subscriptionId === subscriptionId) return ignored("the subscription is already active");
  // Newer versions of Stripe's API give the period's end on the subscription's item rather than on it.
  const items = record(subscription.items).data;
  const periodEnd = whole(subscription.current_period_end) ?? whole(record(Array.isArray(items) ? items[0] : null).current_period_end);
  // Cancelled in the portal to end with the period paid for: still a member until then.
  const endsAt = whole(subscription.cancel_at) ?? (subscription.cancel_at_period_end === true ? periodEnd : null);
  await updateUser(tx, user.id, {
    subscriptionId: member ? subscriptionId : null,
    membershipStatus: status,
    membershipPlan: text(metadata.plan) ?? user.membershipPlan,
    membershipRenewsAt: periodEnd ? new Date(periodEnd * 1000) : null,
    membershipEndsAt: member && endsAt ? new Date(endsAt * 1000) : null,
    membershipChangedAt: new Date(event.created * 1000),
    ...(customerId && !user.paymentCustomerId ? { paymentCustomerId: customerId } : {}),
  });
  return { effect: "membership", userId: user.id, subscriptionId: member ? subscriptionId : null, status };
}

/** A membership invoice's subscription and its metadata: on the invoice, or (newer versions of Stripe's API) under `parent`. */
function subscriptionOfInvoice(invoice: Record<string, unknown>) {
  const details = record(record(invoice.parent).subscription_details);
  return {
    subscriptionId: idOf(invoice.subscription) ?? idOf(details.subscription),
    metadata: { ...record(record(invoice.subscription_details).metadata), ...record(details.metadata) },
  };
}

async function renewalFailed(event: PaymentEvent, tx: Db): Promise<PaymentEffect> {
  const invoice = event.data.object;
  const { subscriptionId } = subscriptionOfInvoice(invoice);
  if (!subscriptionId) return ignored("not a membership's invoice");
  const user = await accountOf(tx, { userId: null, customerId: idOf(invoice.customer), subscriptionId });
  if (!user || user.subscriptionId !== subscriptionId) return ignored("no account with this subscription");
  if (isStale(user, event)) return ignored("an older invoice event");
  // The payment service retries the renewal; the member keeps their perks meanwhile and is told by it.
  await updateUser(tx, user.id, { membershipStatus: "past_due", membershipChangedAt: new Date(event.created * 1000) });
  return { effect: "membership", userId: user.id, subscriptionId, status: "past_due" };
}

/** The payment of an invoice: its payment intent (older API), else the first of its `payments` (newer), else the invoice itself. */
function paymentOfInvoice(invoice: Record<string, unknown>) {
  const listed = record(invoice.payments).data;
  const first = record(record(Array.isArray(listed) ? listed[0] : null).payment);
  return idOf(invoice.payment_intent) ?? idOf(first.payment_intent) ?? idOf(first.charge) ?? idOf(invoice.charge) ?? text(invoice.id);
}

/**
 * A membership's period was paid (its first, or a renewal): the payment and a numbered invoice of
 * ours, once per invoice of the payment service's, and its receipt queued in this transaction.
 */
async function membershipInvoicePaid(event: PaymentEvent, tx: Db, provider: string): Promise<PaymentEffect> {
  const invoice = event.data.object;
  const { subscriptionId, metadata } = subscriptionOfInvoice(invoice);
  if (!subscriptionId) return ignored("not a membership's invoice");
  const invoiceId = text(invoice.id);
  const amount = whole(invoice.amount_paid);
  const currency = text(invoice.currency)?.toLowerCase();
  if (!invoiceId || amount === null || !currency) return ignored("the invoice lacks its id or amount");
  const customerId = idOf(invoice.customer);
  const user = await accountOf(tx, { userId: ourId(metadata.userId), customerId, subscriptionId });
  if (!user) return ignored("no account for this membership");
  if (customerId && !user.paymentCustomerId) await updateUser(tx, user.id, { paymentCustomerId: customerId });

  const plan = membershipPlan(text(metadata.plan) ?? user.membershipPlan);
  const paidAt = whole(record(invoice.status_transitions).paid_at) ?? event.created;
  // Our memberships are charged without tax or discounts; what the payment service says wins.
  const tax = whole(invoice.tax) ?? 0;
  const subtotal = whole(invoice.subtotal) ?? amount - tax;
  const discount = Math.max(0, subtotal + tax - amount);
  const paymentId = paymentOfInvoice(invoice)!;
  // A period that cost nothing (a trial) is invoiced, but no money moved: no payment, no receipt.
  const payment =
    amount > 0
      ? (
          await findOrInsertPayment(tx, {
            provider,
            providerPaymentId: paymentId,
            providerCustomerId: customerId,
            amount,
            currency,
            userId: user.id,
          })
        ).payment
      : null;
  const { invoice: recorded, created } = await findOrInsertProviderInvoice(tx, {
    providerInvoiceId: invoiceId,
    userId: user.id,
    cartId: null,
    eventId: null,
    paymentId: payment?.id ?? null,
    lines: [
      {
        key: plan?.key ?? "vip",
        name: plan?.name ?? "VIP membership",
        quantity: 1,
        unitAmount: subtotal,
        amount: subtotal,
        discount,
        net: subtotal - discount,
        included: null,
      },
    ],
    subtotal,
    discount,
    tax,
    total: amount,
    currency,
    taxLabel: "Tax",
    taxBasisPoints: subtotal - discount > 0 ? Math.round((tax * 10_000) / (subtotal - discount)) : 0,
    country: null,
    promoCode: null,
    paidAt: new Date(paidAt * 1000),
  });
  if (created && recorded.total > 0) {
    await enqueue("invoice-receipt", { invoiceId: recorded.id }, { singletonKey: `receipt:${recorded.id}`, db: tx });
  }
  return { effect: "membership-invoice", userId: user.id, invoiceId: recorded.id, alreadyRecorded: !created };
}
