import { maskedEmail } from "~/domain/masked-email";
import { db, type Db } from "~/lib/db.server";
import { findLocalPaymentObject, listLocalPaymentObjects, type StoredObject } from "~/models/local-payment.server";
import { isPayerOf, type CheckoutPayer } from "../checkout-payer.server";
import { localPaymentsActive } from "../provider.server";
import { judgeCard } from "./cards";
import { completeSession, type SessionPrivate } from "./checkout-completion.server";
import { PRIVATE, queueDeliveries, recordEvents } from "./objects.server";
import { currentCheckoutSession, expireCheckoutSession } from "./resources.server";
import { priceOf, setCancelAtPeriodEnd } from "./subscriptions.server";

// The local payment service's hosted pages, the checkout page and the billing portal, as Stripe's
// own pages are; what paying makes is in checkout-completion.server.ts, its webhooks in
// webhook-delivery.server.ts.

export interface LocalCheckoutView {
  id: string;
  status: "open" | "complete" | "expired";
  mode: "payment" | "subscription";
  amountTotal: number;
  currency: string;
  lines: { name: string; quantity: number; unitAmount: number; amount: number }[];
  /** The lines' sum, before the discount. */
  subtotal: number;
  /** A promo code's line (the session's coupon): what it is called and what it takes off. */
  discount: { name: string; amount: number } | null;
  /** The membership's period, for a subscription. */
  interval: string | null;
  /** The payer's e-mail when the app gave it (then it is not asked for); masked for anyone but the payer. */
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
    subtotal: Number(session.amount_subtotal ?? session.amount_total),
    discount: kept.discount ? { name: kept.discount.name, amount: kept.discount.amount } : null,
    interval: kept.lines[0]?.price.recurring?.interval ?? null,
    email,
    cancelUrl: (session.cancel_url as string | null) ?? null,
    successUrl: successUrlOf(session),
  };
}

/**
 * The checkout page's session; null when there is none (or the local service is off). Its link
 * travels (a shared screen, a forwarded message): whoever is not its payer (checkout-payer.server.ts)
 * sees the payer's e-mail masked.
 */
export async function localCheckoutSession(id: string, viewer: CheckoutPayer): Promise<LocalCheckoutView | null> {
  if (!localPaymentsActive()) return null;
  const found = await db().transaction(async (tx) => {
    const session = await currentCheckoutSession(tx, id);
    return session ? { session, email: await knownEmail(tx, session) } : null;
  });
  if (!found) return null;
  const { session, email } = found;
  const metadata = (session.metadata ?? {}) as Record<string, string>;
  const shown = email && !(await isPayerOf({ id: session.id, metadata }, viewer)) ? maskedEmail(email) : email;
  return checkoutView(session, shown);
}

export type LocalPayOutcome =
  { ok: true; redirectTo: string } | { ok: false; field?: "email" | "cardNumber" | "expiry" | "cvc"; message: string } | null;

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
    const session = await currentCheckoutSession(tx, id);
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

/** The expiry job of one session: unpaid at its `expires_at`, it expires and says so by webhook. */
export async function expireLocalCheckout(sessionId: string) {
  if (!localPaymentsActive()) return;
  await db().transaction((tx) => expireCheckoutSession(tx, sessionId));
}

export interface LocalPortalMembership {
  id: string;
  name: string;
  amount: number;
  currency: string;
  interval: string;
  status: string;
  /** The end of the period paid for: when it renews, or when it ends if it is cancelled. */
  periodEnd: number;
  /** Cancelled to end with the period paid for: it can still be renewed until then. */
  cancelAtPeriodEnd: boolean;
}

export interface LocalPortalView {
  id: string;
  email: string | null;
  returnUrl: string | null;
  memberships: LocalPortalMembership[];
}

async function portalParts(tx: Db, id: string) {
  const portal = await findLocalPaymentObject(tx, id, "billing_portal.session");
  if (!portal) return null;
  const customer = await findLocalPaymentObject(tx, String(portal.customer), "customer");
  return { portal, customer };
}

/** The billing portal: the customer's memberships, which they may cancel at the period's end or renew until then. */
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
      const price = priceOf(subscription);
      return {
        id: subscription.id,
        name: price.product_data?.name ?? "Membership",
        amount: price.unit_amount,
        currency: price.currency ?? "usd",
        interval: price.recurring?.interval ?? "month",
        status: String(subscription.status),
        periodEnd: Number(subscription.current_period_end),
        cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
      };
    }),
  };
}

/**
 * Cancels one of the portal's customer's memberships at the end of the period paid for, as
 * Stripe's portal does (`cancel`), or renews one so cancelled before then; false when it is not theirs.
 */
export async function changeFromLocalPortal(portalId: string, subscriptionId: string, cancel: boolean): Promise<boolean> {
  if (!localPaymentsActive()) return false;
  const eventIds = await db().transaction(async (tx) => {
    const parts = await portalParts(tx, portalId);
    const subscription = await findLocalPaymentObject(tx, subscriptionId, "subscription", { lock: true });
    if (!parts || !subscription || subscription.customer !== parts.portal.customer) return null;
    return recordEvents(tx, await setCancelAtPeriodEnd(tx, subscription, cancel));
  });
  if (!eventIds) return false;
  await queueDeliveries(eventIds);
  return true;
}
