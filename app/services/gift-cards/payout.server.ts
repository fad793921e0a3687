import type { Event } from "drizzle/schema";
import { isGiftCardServiceError } from "~/integrations/gift-cards/gift-cards-port";
import { enqueue } from "~/jobs/queue.server";
import { db } from "~/lib/db.server";
import { ApiError, notFound } from "~/lib/http.server";
import { findEventById, listRecipients } from "~/models/event.server";
import { findGiftById, findGiftOfEvent, giftPot, updateGift } from "~/models/gift.server";
import { findUserById } from "~/models/user.server";
import { giftSummary } from "./gifts.server";
import { giftCardProvider } from "./provider.server";
import { queueGiftRefunds } from "./refunds.server";

// Payout at delivery (docs/decisions/023-group-gift-cards.md): one job orders the pot as one card for
// the recipient. The pot is frozen first (status "ordering", amountPaidOut), so contributions stop and
// every retry orders the same amount; the vendor's order is keyed by the gift, so a worker that dies
// after ordering and before saving makes the retry find the same order rather than a second card.

/** The vendor's key for a gift's one order. */
const externalIdOf = (giftId: string) => `chorus-gift:${giftId}`;

/** Queues the payout of the event's gift, if it has one still collecting or being ordered. */
export async function queueGiftPayout(eventId: string) {
  const gift = await findGiftOfEvent(db(), eventId);
  if (!gift || (gift.status !== "collecting" && gift.status !== "ordering")) return null;
  await enqueue("gift-card-payout", { giftId: gift.id });
  return gift;
}

/** Freezes the pot as the amount to order, once; a gift with too little in it fails at once. */
async function freezePot(giftId: string) {
  return db().transaction(async (tx) => {
    const gift = await findGiftById(tx, giftId, { forUpdate: true });
    if (!gift || gift.status !== "collecting") return gift;
    const pot = await giftPot(tx, gift.id);
    if (pot.total < gift.minAmount) {
      const failure =
        pot.total === 0 ? "No one chipped in, so there is no card to send." : "Too little was collected for the smallest card.";
      return updateGift(tx, gift.id, { status: "failed", failure });
    }
    return updateGift(tx, gift.id, { status: "ordering", amountPaidOut: pot.total });
  });
}

async function recipientOf(event: Event | null, eventId: string) {
  const recipients = await listRecipients(db(), eventId);
  const first = recipients[0];
  const organiser = event ? await findUserById(db(), event.creatorId) : null;
  return {
    name: [first?.firstName, first?.lastName].filter(Boolean).join(" ") || "The recipient",
    // The card is claimed from the recipient's page; the vendor wants an address all the same.
    email: recipients.find((r) => r.email)?.email ?? organiser?.email ?? "",
  };
}

/** The payout job: orders the frozen pot, records the order, and fails clearly when the vendor gives up. */
export async function payOutGift(giftId: string, { finalAttempt }: { finalAttempt: boolean }) {
  const gift = await freezePot(giftId);
  // Too little in the pot to buy the smallest card: what there is goes back.
  if (gift?.status === "failed") await queueGiftRefunds(gift.eventId);
  if (!gift || gift.status !== "ordering") return;
  const event = await findEventById(db(), gift.eventId, { withDeleted: true });
  try {
    const order = await giftCardProvider().createOrder({
      productId: gift.productId,
      amount: gift.amountPaidOut,
      currency: gift.currency,
      recipient: await recipientOf(event ?? null, gift.eventId),
      externalId: externalIdOf(gift.id),
    });
    if (order.status === "failed") {
      await updateGift(db(), gift.id, { status: "failed", orderId: order.id, failure: "The gift-card service could not send the card." });
      await queueGiftRefunds(gift.eventId);
      return;
    }
    if (order.status === "delivered") {
      await updateGift(db(), gift.id, { status: "delivered", orderId: order.id, claimUrl: order.claimUrl });
      return;
    }
    await updateGift(db(), gift.id, { orderId: order.id });
    // Received, not yet sent: look again with the queue's growing delays.
    if (!finalAttempt) throw new Error(`gift ${gift.id}: order ${order.id} is not delivered yet`);
    console.warn(`gift ${gift.id}: order ${order.id} was still not delivered after the last attempt`);
  } catch (error) {
    if (!isGiftCardServiceError(error)) throw error;
    if (error.retryable && !finalAttempt) throw error;
    await updateGift(db(), gift.id, { status: "failed", failure: `${error.message} The card was not sent.` });
    await queueGiftRefunds(gift.eventId);
  }
}

/**
 * POST /v2/tremendous/orders: the organiser (or staff) sends the gift card now that the Chorus is
 * delivered; earlier is too soon (409). Answers the gift as it stands; the order is made by the job.
 */
export async function orderGiftNow(event: Event) {
  if (!event.deliveredAt) throw new ApiError(409, "NOT_DUE", "The gift card is sent once the Chorus is delivered.");
  const gift = await findGiftOfEvent(db(), event.id);
  if (!gift) throw notFound("This Chorus has no gift card.");
  await queueGiftPayout(event.id);
  return giftSummary(gift);
}
