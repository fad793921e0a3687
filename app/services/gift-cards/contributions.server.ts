import type { User } from "drizzle/schema";
import { z } from "zod";
import { giftRoomRefusal, PROVISIONAL_HOLD_MS } from "~/domain/commerce/holds";
import { formatMoney, parseMoney } from "~/domain/commerce/money";
import { isPaymentServiceError } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError, badRequest, notFound } from "~/lib/http.server";
import {
  abandonPendingGiftContribution,
  findGiftById,
  findGiftOfEvent,
  giftPot,
  heldGiftRoom,
  insertGiftContribution,
  setGiftContributionSession,
} from "~/models/gift.server";
import type { EventKeys } from "~/services/events/event-access.server";
import { openEventByUuid } from "~/services/events/open-event.server";
import { paymentsProvider } from "~/services/payments/provider.server";
import { giftSummary } from "./gifts.server";

// Contributors chip in towards the group gift card: each contribution is paid through the same
// checkout as carts, and only the payment webhook marks it paid (docs/decisions/023-group-gift-cards.md).

export const chipInInput = z.object({
  name: z.string().trim().min(1, "Tell us your name.").max(100, "Keep your name under 100 characters."),
  email: z.email({ error: "Give an e-mail address for your receipt." }).max(254),
  /** Typed in the card's currency ("25", "25.50"). */
  amount: z.coerce.string({ error: "Choose an amount." }).trim().min(1, "Choose an amount.").max(20),
});

export type ChipIn = z.infer<typeof chipInInput>;

/** The gift a contributor may chip into, from the event page address; 404 when there is none to join. */
export async function giftToJoin(user: User | null, eventUuid: string | undefined, keys: EventKeys = {}) {
  const { event, viewer } = await openEventByUuid(user, eventUuid, keys);
  if (viewer.role === "recipient" || viewer.role === "view-only") throw notFound("There is no gift to chip into here.");
  const gift = await findGiftOfEvent(db(), event.id);
  if (!gift || gift.status !== "collecting" || event.deletedAt) throw notFound("There is no gift to chip into here.");
  return { event, gift };
}

/**
 * Holds the amount's room on the card for a payment page about to open: a pending row in the ledger,
 * made under the gift's row lock, so two pages opened at once cannot both take the same room
 * (docs/decisions/046). A refusal says how much room is left, or that the rest is held by a payment
 * in progress and when it is free again.
 */
async function holdRoom(giftId: string, amount: number, fields: ChipIn) {
  return db().transaction(async (tx) => {
    const gift = await findGiftById(tx, giftId, { forUpdate: true });
    if (!gift || gift.status !== "collecting") throw notFound("There is no gift to chip into here.");
    const [pot, held] = [await giftPot(tx, gift.id), await heldGiftRoom(tx, gift.id)];
    const refusal = giftRoomRefusal(
      amount,
      { maxAmount: gift.maxAmount, pot: pot.total, held: held.total, lastFreesAt: held.lastFreesAt, currency: gift.currency },
      new Date(),
    );
    if (refusal) throw badRequest("Some fields need your attention.", { amount: refusal });
    return insertGiftContribution(tx, {
      giftId: gift.id,
      name: fields.name,
      email: fields.email,
      amount,
      currency: gift.currency,
      holdsUntil: new Date(Date.now() + PROVISIONAL_HOLD_MS),
    });
  });
}

/**
 * Starts a contribution: a pending row in the ledger holding its room on the card, and a checkout
 * session at the payment service whose metadata names it. Returns where to send the contributor to pay,
 * and the session's id (the contributor's browser keeps it: the payment's return page is theirs alone).
 */
export async function startGiftContribution(user: User | null, eventUuid: string | undefined, fields: ChipIn, keys: EventKeys = {}) {
  const { event, gift } = await giftToJoin(user, eventUuid, keys);
  const amount = parseMoney(fields.amount, gift.currency);
  if (amount === null || amount < gift.minAmount) {
    throw badRequest("Some fields need your attention.", { amount: `Chip in at least ${formatMoney(gift.minAmount, gift.currency)}.` });
  }
  const contribution = await holdRoom(gift.id, amount, fields);
  const provider = paymentsProvider();
  const base = env().APP_URL;
  let session;
  try {
    session = await provider.createPaymentCheckout({
      customerEmail: fields.email,
      clientReferenceId: contribution.id,
      metadata: { kind: "gift-contribution", giftContributionId: contribution.id, giftId: gift.id, eventUuid: event.uuid },
      successUrl: `${base}/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${base}/e/${event.uuid}/gift`,
      idempotencyKey: `gift-contribution:${contribution.id}`,
      lines: [{ name: `Towards a ${gift.productName} gift card`, unitAmount: amount, currency: gift.currency.toLowerCase(), quantity: 1 }],
    });
  } catch (error) {
    // No page was opened: the room it was to hold is free again.
    await abandonPendingGiftContribution(db(), contribution.id);
    if (isPaymentServiceError(error)) throw new ApiError(503, "PAYMENT_SERVICE_UNAVAILABLE", error.message);
    throw error;
  }
  await setGiftContributionSession(db(), contribution.id, provider.name, session.id, session.expiresAt);
  return { id: contribution.id, url: session.url, sessionId: session.id };
}

/** What the chip-in page shows of the gift. */
export async function giftToJoinView(user: User | null, eventUuid: string | undefined, keys: EventKeys = {}) {
  const { event, gift } = await giftToJoin(user, eventUuid, keys);
  return { uuid: event.uuid, gift: await giftSummary(gift) };
}
