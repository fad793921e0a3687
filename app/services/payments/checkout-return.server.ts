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
  /** Where "back" goes: the event the payment was for, the billing page for a membership, else the dashboard. */
  backTo: string;
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
  const eventUuid = uuid.safeParse(session.metadata.eventUuid);
  return {
    sessionId: session.id,
    state,
    mode: session.mode,
    amountTotal: session.amountTotal,
    currency: session.currency,
    backTo: eventUuid.success ? `/e/${eventUuid.data}` : session.mode === "subscription" ? "/settings/billing" : "/dashboard",
  };
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
