import { db } from "~/lib/db.server";
import { markPaymentEventProcessed, recordPaymentEvent } from "~/models/payment-event.server";
import { applyPaymentEvent } from "~/services/commerce/payment-effects.server";
import { paymentsProvider } from "./provider.server";

export type WebhookOutcome = "applied" | "ignored" | "duplicate";

/**
 * Takes in one webhook: its signature is checked against the raw body (InvalidWebhookSignatureError
 * when it does not verify, and nothing changes); then, in one transaction, the event goes into the
 * ledger and its effects are applied. A repeated event finds its ledger row and does nothing; an
 * effect that fails rolls the ledger row back with it, so the payment service's retry applies it.
 */
export async function receivePaymentWebhook(
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ eventId: string; outcome: WebhookOutcome }> {
  const event = paymentsProvider().verifyWebhook(rawBody, signature);
  const outcome = await db().transaction(async (tx): Promise<WebhookOutcome> => {
    const objectId = typeof event.data.object.id === "string" ? event.data.object.id : null;
    if (!(await recordPaymentEvent(tx, { id: event.id, type: event.type, objectId }))) return "duplicate";
    const applied = await applyPaymentEvent(event, tx, paymentsProvider().name);
    await markPaymentEventProcessed(tx, event.id);
    return applied;
  });
  return { eventId: event.id, outcome };
}
