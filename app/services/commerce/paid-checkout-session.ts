import { z } from "zod";
import { isUuid } from "~/domain/uuid";
import { checkoutSessionShape } from "./payment-event-schemas";

// A completed checkout session as the payment webhook hands it on (Stripe's
// `checkout.session.completed`, or the local payment service's copy of it): the fields a paid
// contribution, tree or postcard is recorded from. A field that is missing or of another type reads
// as none, and the caller ignores the event (docs/decisions/019-payments.md).

const checkoutSession = z.object({
  id: checkoutSessionShape.id,
  payment_status: checkoutSessionShape.payment_status,
  payment_intent: checkoutSessionShape.payment_intent,
  amount_total: z.number().nullable().catch(null),
  metadata: checkoutSessionShape.metadata,
});

type PaidCheckoutSession =
  | { paid: false }
  | {
      paid: true;
      /** Our row the session paid for, named in its metadata under the caller's key: null unless a UUID. */
      ourId: string | null;
      paymentIntentId: string | null;
      /** What was paid, in minor units. */
      amount: number | null;
      checkoutSessionId: string | null;
    };

/**
 * What a completed checkout session says of the row named by `metadataKey`: not paid yet (a session
 * paid later by a bank transfer), or paid, with whatever of its id, payment and amount it carries.
 */
export function readPaidCheckoutSession(session: unknown, metadataKey: string): PaidCheckoutSession {
  const read = checkoutSession.parse(session ?? {});
  // A session without a payment status (the local service's older events) is taken as paid.
  if (read.payment_status !== undefined && read.payment_status !== "paid") return { paid: false };
  const named = read.metadata[metadataKey];
  return {
    paid: true,
    ourId: isUuid(named) ? named : null,
    paymentIntentId: read.payment_intent,
    amount: read.amount_total,
    checkoutSessionId: read.id,
  };
}
