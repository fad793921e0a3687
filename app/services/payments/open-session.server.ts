import { isPaymentServiceError } from "~/integrations/payments/payments-port";
import { paymentsProvider } from "./provider.server";

// Going back to a payment page that is still open (a payer who left it and presses Pay again), by
// asking the payment service for it rather than sending the same key again: Stripe refuses a key
// sent again with other parameters, and each request names a later expiry.

/** The hosted page of a session still open; null when it is not (paid, expired, unknown) or cannot be asked now. */
export async function openSessionUrl(sessionId: string | null) {
  if (!sessionId) return null;
  try {
    const session = await paymentsProvider().retrieveCheckoutSession(sessionId);
    return session?.status === "open" ? session.url : null;
  } catch (error) {
    if (isPaymentServiceError(error)) return null;
    throw error;
  }
}
