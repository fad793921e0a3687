import { isLobWebhookRefused, mailingOfEvent, verifyLobWebhook } from "~/integrations/print-mail/lob-webhook";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError } from "~/lib/http.server";
import { findPostcardByPrintId, recordPrintMailEvent } from "~/models/postcard.server";
import { recordMailing } from "./sending.server";

// Lob's webhooks for postcards (docs/decisions/030-postcards.md): a card's move through the post
// reaches us when it happens rather than when someone looks. Each event is taken in once, by its id,
// in the transaction that applies it: a repeated delivery changes nothing, and one that fails to
// apply leaves no trace, so Lob's retry applies it.

export type PrintWebhookOutcome = "applied" | "ignored" | "duplicate";

/**
 * Takes in one webhook request: a 400 when it is not signed with LOB_WEBHOOK_SECRET
 * (INVALID_SIGNATURE), or signed too long ago (STALE_SIGNATURE), or is no event (INVALID_EVENT);
 * otherwise the event's outcome.
 */
export async function receiveLobWebhook(
  rawBody: Buffer,
  headers: { signature: string | null; timestamp: string | null },
): Promise<{ eventId: string; outcome: PrintWebhookOutcome }> {
  const event = verifiedEvent(rawBody, headers);
  const outcome = await db().transaction(async (tx): Promise<PrintWebhookOutcome> => {
    if (!(await recordPrintMailEvent(tx, { id: event.id, type: event.type, objectId: event.postcardId }))) return "duplicate";
    const status = mailingOfEvent(event.type);
    const card = status && event.postcardId ? await findPostcardByPrintId(tx, event.postcardId) : null;
    if (!status || !card) return "ignored";
    const before = card.mailingStatus;
    const after = await recordMailing(tx, card.id, { status, expectedDelivery: event.expectedDelivery });
    return after && after.mailingStatus !== before ? "applied" : "ignored";
  });
  return { eventId: event.id, outcome };
}

function verifiedEvent(rawBody: Buffer, headers: { signature: string | null; timestamp: string | null }) {
  try {
    return verifyLobWebhook(rawBody, headers, env().LOB_WEBHOOK_SECRET);
  } catch (error) {
    if (!isLobWebhookRefused(error)) throw error;
    const code = error.reason === "stale" ? "STALE_SIGNATURE" : error.reason === "shape" ? "INVALID_EVENT" : "INVALID_SIGNATURE";
    throw new ApiError(400, code, error.message);
  }
}
