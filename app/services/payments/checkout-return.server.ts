import { z } from "zod";
import { isPaymentServiceError } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { ApiError, notFound } from "~/lib/http.server";
import { paymentEventApplied } from "~/models/payment-event.server";
import { findUserBySubscriptionId } from "~/models/user.server";
import { isPayerOf, type CheckoutPayer } from "./checkout-payer.server";
import { paymentsProvider } from "./provider.server";

/**
 * Where a payer stands after the payment page (spec §7.2, /stripe/retrieve-session):
 * - open: not paid yet (the payer came back without paying);
 * - confirming: the payment service says it is paid, but its webhook has not been applied here yet;
 * - paid: the webhook has been applied, so what was bought is ours to show;
 * - expired: the payment page lapsed unpaid.
 */
export type CheckoutReturnState = "open" | "confirming" | "paid" | "expired";

export interface CheckoutReturn {
  sessionId: string;
  state: CheckoutReturnState;
  mode: "payment" | "subscription";
  amountTotal: number | null;
  currency: string | null;
  /** Where "back" goes: the page the payment was made from (the Chorus, its gift card, its trees, a postcard), the billing page for a membership, else the dashboard. */
  backTo: string;
  /** The words of that link, fit for who paid: an organiser's Chorus is theirs, a contributor's is not. */
  backLabel: string;
}

const sessionId = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/);
const uuid = z.uuid();

/**
 * The state of checkout session `id` from the payment service and our ledger, for its payer alone
 * (checkout-payer.server.ts); a 404 when there is none, or when it is someone else's.
 */
export async function checkoutReturn(id: string | null, payer: CheckoutPayer): Promise<CheckoutReturn> {
  const parsed = sessionId.safeParse(id);
  if (!parsed.success) throw notFound("There is no payment with this id.");
  let session;
  try {
    session = await paymentsProvider().retrieveCheckoutSession(parsed.data);
  } catch (error) {
    if (isPaymentServiceError(error)) throw new ApiError(503, "PAYMENT_SERVICE_UNAVAILABLE", error.message);
    throw error;
  }
  if (!session || !(await isPayerOf(session, payer))) throw notFound("There is no payment with this id.");
  let state: CheckoutReturnState = session.status === "expired" ? "expired" : "open";
  if (session.status === "complete" && session.paymentStatus !== "unpaid") {
    const applied = session.mode === "subscription" ? membershipApplied(session.subscriptionId) : cartApplied(session.id);
    state = (await applied) ? "paid" : "confirming";
  }
  const back = backLinkOf(session.metadata, session.mode);
  return {
    sessionId: session.id,
    state,
    mode: session.mode,
    amountTotal: session.amountTotal,
    currency: session.currency,
    backTo: back.href,
    backLabel: back.label,
  };
}

/**
 * Where the return page leads back to, by what was paid for. Contributors who chipped in or planted
 * trees (anyone with the link, usually without an account) go back to that page of the Chorus, which
 * is not "theirs"; only the organiser's own cart goes back to "your Chorus".
 */
function backLinkOf(metadata: Record<string, string>, mode: "payment" | "subscription") {
  const event = uuid.safeParse(metadata.eventUuid);
  const chorus = event.success ? `/e/${event.data}` : null;
  if (mode === "subscription" || metadata.kind === "membership") return { href: "/settings/billing", label: "See your membership" };
  if (!chorus) return { href: "/dashboard", label: "Go to My Choruses" };
  switch (metadata.kind) {
    case "gift-contribution":
      return { href: `${chorus}/gift`, label: "Back to the gift card" };
    case "tree-contribution":
      return { href: `${chorus}/trees`, label: "Back to the trees" };
    case "postcard": {
      const postcard = uuid.safeParse(metadata.postcardId);
      return { href: postcard.success ? `${chorus}/postcards/${postcard.data}` : `${chorus}/postcards`, label: "See your postcard" };
    }
    case "mail-order":
      return { href: `${chorus}/post`, label: "See your order" };
    default:
      return { href: chorus, label: "Back to your Chorus" };
  }
}

const cartApplied = (sessionId: string) => paymentEventApplied(db(), sessionId, "checkout.session.completed");

/**
 * A membership is ours once its subscription events have made the account a member (the session's
 * own event changes nothing for a membership); one cancelled since has been taken in too.
 */
async function membershipApplied(subscriptionId: string | null) {
  if (!subscriptionId) return false;
  if (await findUserBySubscriptionId(db(), subscriptionId)) return true;
  return paymentEventApplied(db(), subscriptionId, "customer.subscription.deleted");
}
