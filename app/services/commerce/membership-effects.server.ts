import type { User } from "drizzle/schema";
import { membershipPlan } from "~/domain/commerce/memberships";
import type { PaymentEvent } from "~/integrations/payments/payments-port";
import { enqueue } from "~/jobs/queue.server";
import type { Db } from "~/lib/db.server";
import { findOrInsertPayment, findOrInsertProviderInvoice } from "~/models/payment.server";
import { findUserById, findUserByPaymentCustomerId, findUserBySubscriptionId, lockUser, updateUser } from "~/models/user.server";
import { ignored, type PaymentEffect } from "./payment-event-fields.server";
import { invoice as invoiceSchema, membershipMetadata, subscription as subscriptionSchema, type Invoice } from "./payment-event-schemas";

// What a payment event does to a VIP membership (docs/decisions/021-vip-membership.md): the
// subscription's state follows its events, and each paid period is recorded as an invoice.

/** Statuses in which a subscription still makes its owner a member (Stripe retries a failed renewal). */
const MEMBER_STATUSES = new Set(["active", "trialing", "past_due"]);

async function accountOf(tx: Db, ids: { userId: string | null; customerId: string | null; subscriptionId: string | null }) {
  let user: User | null = null;
  if (ids.userId && /^[0-9a-f-]{36}$/i.test(ids.userId)) user = await findUserById(tx, ids.userId);
  if (!user && ids.customerId) user = await findUserByPaymentCustomerId(tx, ids.customerId);
  if (!user && ids.subscriptionId) user = await findUserBySubscriptionId(tx, ids.subscriptionId);
  return user ? lockUser(tx, user.id) : null;
}

/** An event older than the last one applied to this account changes nothing (events can arrive out of order). */
const isStale = (user: User, at: number) => !!user.membershipChangedAt && user.membershipChangedAt.getTime() > at * 1000;

export async function subscriptionChanged(event: PaymentEvent, tx: Db): Promise<PaymentEffect> {
  return recordSubscription(tx, event.data.object, { deleted: event.type === "customer.subscription.deleted", at: event.created });
}

/**
 * What a subscription's state (told by one of its events, or answered to a change we asked for) does
 * to its account's membership, as of `at` (Unix seconds): an older state than the last one recorded
 * changes nothing.
 */
export async function recordSubscription(
  tx: Db,
  object: Record<string, unknown>,
  { deleted, at }: { deleted: boolean; at: number },
): Promise<PaymentEffect> {
  const subscription = subscriptionSchema.parse(object);
  const { id: subscriptionId, customer: customerId } = subscription;
  const metadata = membershipMetadata.parse(subscription.metadata);
  const user = await accountOf(tx, { userId: metadata.userId, customerId, subscriptionId });
  if (!user || !subscriptionId) return ignored("no account for this subscription");
  if (isStale(user, at)) return ignored("an older subscription event");
  const status = deleted ? "canceled" : (subscription.status ?? "active");
  const member = MEMBER_STATUSES.has(status);
  // Another subscription of the same account ending leaves the current one be.
  if (!member && user.subscriptionId && user.subscriptionId !== subscriptionId) return ignored("not the account's current subscription");
  // "incomplete" only ever comes before a subscription's first payment: told late (in the same
  // second as its "active", so not older by the clock), it must not undo the membership.
  if (status === "incomplete" && user.subscriptionId === subscriptionId) return ignored("the subscription is already active");
  // Newer versions of Stripe's API give the period's end on the subscription's item rather than on it.
  const periodEnd = subscription.current_period_end ?? subscription.items.data[0]?.current_period_end ?? null;
  // Cancelled to end with the period paid for: still a member until then.
  const endsAt = subscription.cancel_at ?? (subscription.cancel_at_period_end ? periodEnd : null);
  await updateUser(tx, user.id, {
    subscriptionId: member ? subscriptionId : null,
    membershipStatus: status,
    membershipPlan: metadata.plan ?? user.membershipPlan,
    membershipRenewsAt: periodEnd ? new Date(periodEnd * 1000) : null,
    membershipEndsAt: member && endsAt ? new Date(endsAt * 1000) : null,
    membershipChangedAt: new Date(at * 1000),
    ...(customerId && !user.paymentCustomerId ? { paymentCustomerId: customerId } : {}),
  });
  return { effect: "membership", userId: user.id, subscriptionId: member ? subscriptionId : null, status };
}

/** A membership invoice's subscription and its metadata: on the invoice, or (newer versions of Stripe's API) under `parent`. */
function subscriptionOfInvoice(invoice: Invoice) {
  const details = invoice.parent.subscription_details;
  return {
    subscriptionId: invoice.subscription ?? details.subscription,
    metadata: membershipMetadata.parse({ ...invoice.subscription_details.metadata, ...details.metadata }),
  };
}

export async function renewalFailed(event: PaymentEvent, tx: Db): Promise<PaymentEffect> {
  const invoice = invoiceSchema.parse(event.data.object);
  const { subscriptionId } = subscriptionOfInvoice(invoice);
  if (!subscriptionId) return ignored("not a membership's invoice");
  const user = await accountOf(tx, { userId: null, customerId: invoice.customer, subscriptionId });
  if (!user || user.subscriptionId !== subscriptionId) return ignored("no account with this subscription");
  if (isStale(user, event.created)) return ignored("an older invoice event");
  // The payment service retries the renewal; the member keeps their perks meanwhile and is told by it.
  await updateUser(tx, user.id, { membershipStatus: "past_due", membershipChangedAt: new Date(event.created * 1000) });
  return { effect: "membership", userId: user.id, subscriptionId, status: "past_due" };
}

/** The payment of an invoice: its payment intent (older API), else the first of its `payments` (newer), else the invoice itself. */
function paymentOfInvoice(invoice: Invoice) {
  const first = invoice.payments.data[0]?.payment;
  return invoice.payment_intent ?? first?.payment_intent ?? first?.charge ?? invoice.charge ?? invoice.id;
}

/**
 * A membership's period was paid (its first, or a renewal): the payment and a numbered invoice of
 * ours, once per invoice of the payment service's, and its receipt queued in this transaction.
 */
export async function membershipInvoicePaid(event: PaymentEvent, tx: Db, provider: string): Promise<PaymentEffect> {
  const invoice = invoiceSchema.parse(event.data.object);
  const { subscriptionId, metadata } = subscriptionOfInvoice(invoice);
  if (!subscriptionId) return ignored("not a membership's invoice");
  const { id: invoiceId, amount_paid: amount } = invoice;
  const currency = invoice.currency?.toLowerCase();
  if (!invoiceId || amount === null || !currency) return ignored("the invoice lacks its id or amount");
  const customerId = invoice.customer;
  const user = await accountOf(tx, { userId: metadata.userId, customerId, subscriptionId });
  if (!user) return ignored("no account for this membership");
  if (customerId && !user.paymentCustomerId) await updateUser(tx, user.id, { paymentCustomerId: customerId });

  const plan = membershipPlan(metadata.plan ?? user.membershipPlan);
  const paidAt = invoice.status_transitions.paid_at ?? event.created;
  // Our memberships are charged without tax or discounts; what the payment service says wins.
  const tax = invoice.tax ?? 0;
  const subtotal = invoice.subtotal ?? amount - tax;
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
    await enqueue("invoice-receipt", { invoiceId: recorded.id }, { db: tx });
  }
  return { effect: "membership-invoice", userId: user.id, invoiceId: recorded.id, alreadyRecorded: !created };
}
