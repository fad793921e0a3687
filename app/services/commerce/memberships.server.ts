import type { User } from "drizzle/schema";
import {
  MEMBERSHIP_PLAN_KEYS,
  membershipCheckoutKey,
  membershipPlan,
  membershipStanding,
  planPrice,
  STANDING_LABEL,
  type MembershipPlanKey,
} from "~/domain/commerce/memberships";
import { formatMoney } from "~/domain/commerce/money";
import { isMember } from "~/domain/membership";
import { isPaymentServiceError, type CheckoutSessionRef } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError } from "~/lib/http.server";
import { findUserById } from "~/models/user.server";
import { paymentsProvider } from "~/services/payments/provider.server";
import { formatDay, INVOICE_STATUS_LABEL, invoicesOf } from "./invoices.server";
import { recordSubscription } from "./membership-effects.server";
import { receiptsOf } from "./receipts.server";

// VIP memberships: joining through the payment service's subscription checkout; cancelling to end
// with the period paid for, and keeping it until then; managing it in the payment service's billing
// portal. Who is a member is decided by what the payment service says of the subscription (its
// events, payment-effects.server.ts, or its answer to a change asked here), never by coming back
// from a page (docs/decisions/021 and 047).

/** The payment service failed: nothing was charged, and the message says whether to try again. */
async function withPaymentService<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isPaymentServiceError(error)) throw new ApiError(503, "PAYMENT_SERVICE_UNAVAILABLE", error.message);
    throw error;
  }
}

/** The plans on offer, with their prices and what they give, for the billing page. */
const planOffers = () =>
  MEMBERSHIP_PLAN_KEYS.map((key) => {
    const plan = membershipPlan(key)!;
    return { key, name: plan.name, price: planPrice(plan), gives: [...plan.gives] };
  });

/**
 * Starts a membership (POST /v2/subscriptions/checkout): the payment service's subscription
 * checkout at the catalogue's price for `planKey`. A member is refused with a 409; pressing Join
 * twice opens one page. The subscription carries the account's id, so its events find it.
 */
export async function startMembershipCheckout(user: User, planKey: MembershipPlanKey, now = new Date()): Promise<CheckoutSessionRef> {
  if (isMember(user)) {
    throw new ApiError(409, "ALREADY_MEMBER", "You are a VIP member already: manage your membership on the billing page.");
  }
  const plan = membershipPlan(planKey)!;
  const base = env().APP_URL;
  return withPaymentService(() =>
    paymentsProvider().createSubscriptionCheckout({
      customerEmail: user.email,
      customerId: user.paymentCustomerId,
      clientReferenceId: user.id,
      metadata: { kind: "membership", userId: user.id, plan: plan.key },
      // The return page waits for the membership, then links back to the billing page.
      successUrl: `${base}/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${base}/settings/billing`,
      idempotencyKey: membershipCheckoutKey(user, planKey, now),
      plan: { key: plan.key, name: plan.name, unitAmount: plan.unitAmount, currency: plan.currency, interval: plan.interval },
    }),
  );
}

/**
 * The payment service's billing portal for the account, where a member changes their card or
 * cancels: only for someone the payment service knows as a customer.
 */
export async function openBillingPortal(user: User): Promise<{ url: string }> {
  if (!user.paymentCustomerId) {
    throw new ApiError(409, "NO_MEMBERSHIP", "There is no membership to manage: nothing has been paid from this account yet.");
  }
  const customerId = user.paymentCustomerId;
  return withPaymentService(() =>
    paymentsProvider().createBillingPortalSession({ customerId, returnUrl: `${env().APP_URL}/settings/billing` }),
  );
}

/** The account's membership, which can be cancelled at its period's end or kept: a 409 otherwise. */
function billedSubscription(user: User) {
  if (!user.subscriptionId || !user.paymentCustomerId) {
    throw new ApiError(409, "NO_MEMBERSHIP", "There is no membership billed to this account to change.");
  }
  return user.subscriptionId;
}

/**
 * Cancels (`cancel`) the account's membership at the end of the period paid for, or keeps one so
 * cancelled after all. The payment service's answer is recorded at once, as its event would be (the
 * event that follows changes nothing more), so the billing page says "Ends on" or "Renews on" when
 * it opens. Answers where the membership now stands, in words.
 */
export async function setMembershipCancelled(user: User, cancel: boolean, now = new Date()) {
  const subscriptionId = billedSubscription(user);
  const subscription = await withPaymentService(() =>
    paymentsProvider().setCancelAtPeriodEnd({
      subscriptionId,
      cancelAtPeriodEnd: cancel,
      // A double press is one change; cancelling again after keeping it is a new one.
      idempotencyKey: `membership:${subscriptionId}:cancel-at-period-end:${cancel}:${user.membershipChangedAt?.getTime() ?? 0}`,
    }),
  );
  const updated = await db().transaction(async (tx) => {
    await recordSubscription(tx, subscription, { deleted: false, at: Math.floor(now.getTime() / 1000) });
    return (await findUserById(tx, user.id)) ?? user;
  });
  return membershipView(updated);
}

/** The cancellation page (/settings/billing/cancel): until when the membership lasts; null when there is none to cancel. */
export function cancellationView(user: User) {
  const view = membershipView(user);
  if (!view.canCancel || !view.renewsOn) return null;
  return { plan: view.plan, endsOn: view.renewsOn };
}

/**
 * The billing page (/settings/billing): the plans for someone who is not a member, where a
 * member's membership stands, and the account's invoices and other receipts, newest first.
 */
export async function loadBillingPage(user: User | null) {
  const [invoices, receipts] = user ? await Promise.all([invoicesOf(user.id), receiptsOf(user.id)]) : [[], []];
  return {
    loggedIn: !!user,
    membership: user ? membershipView(user) : null,
    plans: planOffers(),
    invoices: invoices.map((invoice) => ({
      id: invoice.id,
      number: invoice.number,
      date: formatDay(invoice.paidAt),
      what: invoice.what,
      amount: formatMoney(invoice.total, invoice.currency),
      status: invoice.status,
      statusLabel: INVOICE_STATUS_LABEL[invoice.status],
    })),
    /** Postcards and posted copies: paid without an invoice, each with a receipt (decision 048). */
    receipts,
  };
}

export type BillingPage = Awaited<ReturnType<typeof loadBillingPage>>;

/** Where the account's membership stands, in words, for the billing page. */
function membershipView(user: User) {
  const standing = membershipStanding(user);
  const billed = !!user.subscriptionId && !!user.paymentCustomerId;
  const plan = membershipPlan(user.membershipPlan);
  return {
    member: isMember(user),
    standing,
    status: STANDING_LABEL[standing],
    plan: plan ? { name: plan.name, price: planPrice(plan) } : null,
    /** When it renews; when it is cancelling, when it ends instead. */
    renewsOn: standing === "cancelling" || !user.membershipRenewsAt ? null : formatDay(user.membershipRenewsAt.toISOString()),
    endsOn: standing === "cancelling" && user.membershipEndsAt ? formatDay(user.membershipEndsAt.toISOString()) : null,
    /** A billed membership can be managed in the payment service's portal; a legacy plan cannot. */
    canManage: billed,
    /** It may be cancelled to end with its period, or, once so cancelled, kept until then. */
    canCancel: billed && standing !== "cancelling",
    canKeep: billed && standing === "cancelling",
  };
}
