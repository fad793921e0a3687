import type { Gift, GiftContribution } from "drizzle/schema";
import { formatMoney } from "~/domain/commerce/money";
import { PRODUCT_NAME } from "~/domain/product";
import { enqueue } from "~/jobs/queue.server";
import { db, type Db } from "~/lib/db.server";
import {
  findGiftById,
  findGiftContribution,
  findGiftOfEvent,
  listRefundableGiftContributions,
  markGiftContributionRefunded,
  updateGift,
} from "~/models/gift.server";
import { publishPot } from "~/services/events/pot-realtime.server";
import { refundContributionPayment } from "~/services/payments/contribution-refund.server";

// Refunds (docs/decisions/023-group-gift-cards.md): when a Chorus is deleted, or its card could not
// be sent, every contribution goes back through the payment adapter and its contributor is told
// (by the refund's notice, docs/decisions/048).

/**
 * Stops the event's gift and queues its refunds, in `tx` when given. A gift already ordered or sent
 * is left alone: its money is on the card.
 */
export async function queueGiftRefunds(eventId: string, tx: Db = db()) {
  const gift = await findGiftOfEvent(tx, eventId, { forUpdate: true });
  if (!gift || gift.status === "ordering" || gift.status === "delivered") return null;
  if (gift.status === "collecting") await updateGift(tx, gift.id, { status: "refunded", failure: "The Chorus was deleted." });
  await enqueue("gift-card-refunds", { giftId: gift.id }, { db: tx });
  return gift;
}

/** The refund job: each paid contribution back to its card, once (the idempotency key is per contribution). */
export async function refundGiftContributions(giftId: string) {
  const gift = await findGiftById(db(), giftId);
  if (!gift || (gift.status !== "refunded" && gift.status !== "failed")) return;
  const why = gift.status === "failed" ? "the gift card could not be sent" : "the organiser deleted the Chorus";
  for (const contribution of await listRefundableGiftContributions(db(), gift.id)) await refundContribution(gift, contribution, why);
  if (gift.status === "failed") await updateGift(db(), gift.id, { status: "refunded" });
}

/**
 * Money that arrived once the card was ordered (a checkout left open across the delivery) cannot join
 * it: the payment webhook queues this job, which refunds that one contribution in full.
 */
export async function refundLateGiftContribution(contributionId: string) {
  const contribution = await findGiftContribution(db(), contributionId);
  if (!contribution || contribution.status !== "paid") return;
  const gift = await findGiftById(db(), contribution.giftId);
  if (!gift || gift.status === "collecting") return;
  await refundContribution(gift, contribution, "it arrived after the card had been sent");
  await publishPot(gift.eventId);
}

/**
 * The part of a contribution that did not fit on the card when its payment landed (docs/decisions/046):
 * the webhook took it out of the pot already; this refunds it (keyed by the contribution, so a retry
 * refunds once). The payer hears of it from the refund's own notice, which says why (docs/decisions/048).
 */
export async function refundGiftOverflow(contributionId: string, amount: number) {
  const contribution = await findGiftContribution(db(), contributionId);
  if (!contribution?.paymentIntentId || amount <= 0) return;
  const gift = await findGiftById(db(), contribution.giftId);
  const card = gift ? `a ${gift.productName} gift card` : "a gift card";
  const fitted = formatMoney(contribution.amount - amount, contribution.currency);
  await refundContributionPayment(
    "gift-contribution",
    contribution,
    amount,
    `You chipped in towards ${card} on a ${PRODUCT_NAME}, but by the time your payment went through only ${fitted} still fitted under the card's largest amount: that is on the gift card, and the rest is refunded.`,
    { overflow: true },
  );
}

/** One contribution back to its card; its contributor hears of it from the refund's own notice, which says why (docs/decisions/048). */
async function refundContribution(gift: Gift, contribution: GiftContribution, why: string) {
  await refundContributionPayment(
    "gift-contribution",
    contribution,
    contribution.amount - contribution.amountRefunded,
    `You chipped in towards a ${gift.productName} gift card on a ${PRODUCT_NAME}, but ${why}.`,
  );
  await markGiftContributionRefunded(db(), contribution.id, contribution.amount);
}
