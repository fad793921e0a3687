import { isInvalidWebhookSignature } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { ApiError } from "~/lib/http.server";
import { markPaymentEventProcessed, recordPaymentEvent } from "~/models/payment-event.server";
import { paymentEffect } from "~/services/commerce/payment-effects.server";
import type { PaymentEffect } from "~/services/commerce/payment-event-fields.server";
import { publishPot } from "~/services/events/pot-realtime.server";
import { paymentsProvider } from "./provider.server";

export type WebhookOutcome = "applied" | "ignored" | "duplicate";

/**
 * Takes in one webhook: its signature is checked against the raw body (a 400 INVALID_SIGNATURE
 * when it does not verify, and nothing changes); then, in one transaction, the event goes into the
 * ledger and its effects are applied. A repeated event finds its ledger row and does nothing; an
 * effect that fails rolls the ledger row back with it, so the payment service's retry applies it.
 */
export async function receivePaymentWebhook(
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ eventId: string; outcome: WebhookOutcome }> {
  const event = verifiedEvent(rawBody, signature);
  const { outcome, effect } = await db().transaction(async (tx): Promise<{ outcome: WebhookOutcome; effect?: PaymentEffect }> => {
    const objectId = typeof event.data.object.id === "string" ? event.data.object.id : null;
    if (!(await recordPaymentEvent(tx, { id: event.id, type: event.type, objectId }))) return { outcome: "duplicate" };
    const effect = await paymentEffect(event, tx, paymentsProvider().name);
    await markPaymentEventProcessed(tx, event.id);
    return { outcome: effect.effect === "ignored" ? "ignored" : "applied", effect };
  });
  if (effect) await announce(effect);
  return { eventId: event.id, outcome };
}

function verifiedEvent(rawBody: Buffer, signature: string | undefined) {
  try {
    return paymentsProvider().verifyWebhook(rawBody, signature);
  } catch (error) {
    if (isInvalidWebhookSignature(error)) throw new ApiError(400, "INVALID_SIGNATURE", "The webhook's signature does not verify.");
    throw error;
  }
}

/** What everyone watching sees once the effect is committed: a Chorus's pot or trees grew. */
async function announce(effect: PaymentEffect) {
  const eventId = effect.effect === "tree-contribution" ? effect.eventId : effect.effect === "gift-contribution" ? effect.eventId : null;
  if (!eventId || ("alreadyPaid" in effect && effect.alreadyPaid)) return;
  // The payment is recorded whatever happens here: a lost live update is mended by the next load.
  await publishPot(eventId).catch((error: unknown) => console.error("pot update:", error instanceof Error ? error.message : error));
}
