import type { Gift } from "drizzle/schema";
import { enqueue } from "~/jobs/queue.server";
import type { Db } from "~/lib/db.server";
import {
  findGiftById,
  giftPot,
  heldGiftRoom,
  lockGiftContribution,
  markGiftContributionPaid,
  setGiftContributionOverflow,
} from "~/models/gift.server";
import { readPaidCheckoutSession } from "~/services/commerce/paid-checkout-session";

// What a completed checkout for a gift contribution does (called from the payment webhook's
// transaction, docs/decisions/019-payments.md): the ledger row becomes paid, once.

export type GiftContributionEffect =
  | { effect: "gift-contribution"; contributionId: string; eventId: string | null; alreadyPaid: boolean; giftCollecting: boolean }
  | { effect: "ignored"; reason: string };

/**
 * The pot never goes above the card's largest amount (docs/decisions/046). A contribution whose room
 * was held while its page was open always fits; one that was not held (its hold lapsed) fits only in
 * what paid money and the pages still holding room leave, and the part beyond is taken out of the
 * pot at once and refunded, with a mail to its payer.
 */
async function refundWhatDoesNotFit(tx: Db, gift: Gift, contributionId: string, amount: number) {
  const [pot, held] = [await giftPot(tx, gift.id), await heldGiftRoom(tx, gift.id)];
  const over = Math.min(amount, pot.total + held.total - gift.maxAmount);
  if (over <= 0) return;
  console.warn(`gift contribution ${contributionId}: ${over} of ${amount} did not fit on gift ${gift.id}; refunding it`);
  await setGiftContributionOverflow(tx, contributionId, over);
  await enqueue("gift-contribution-overflow-refund", { giftContributionId: contributionId, amount: over }, { db: tx });
}

export async function giftContributionPaid(session: Record<string, unknown>, tx: Db, provider: string): Promise<GiftContributionEffect> {
  const read = readPaidCheckoutSession(session, "giftContributionId");
  if (!read.paid) return { effect: "ignored", reason: "the session is not paid yet" };
  const { ourId: id, paymentIntentId, amount, checkoutSessionId } = read;
  if (!id || !paymentIntentId || amount === null)
    return { effect: "ignored", reason: "the session lacks its contribution, payment or amount" };
  const contribution = await lockGiftContribution(tx, id);
  if (!contribution) {
    console.warn(`gift contribution ${id} is gone; payment ${paymentIntentId} should be refunded`);
    return { effect: "ignored", reason: `there is no gift contribution ${id}` };
  }
  // A contribution whose payment page expired (abandoned) and was paid all the same is honoured.
  if (contribution.status !== "pending" && contribution.status !== "abandoned")
    return { effect: "gift-contribution", contributionId: id, eventId: null, alreadyPaid: true, giftCollecting: true };
  if (amount !== contribution.amount) console.warn(`gift contribution ${id}: paid ${amount}, asked ${contribution.amount}`);
  // The gift's row is locked first: the payout freezes the pot under the same lock, so this money is
  // either in the frozen pot or seen here as late, never neither.
  const gift = await findGiftById(tx, contribution.giftId, { forUpdate: true });
  await markGiftContributionPaid(tx, id, { provider, paymentIntentId, checkoutSessionId, amount });
  // Money that arrives once the card is ordered cannot join it: it is refunded on its own.
  if (gift?.status === "ordering" || gift?.status === "delivered") {
    await enqueue("gift-contribution-refund", { giftContributionId: id }, { db: tx });
  }
  if (gift?.status === "collecting") await refundWhatDoesNotFit(tx, gift, id, amount);
  if (gift?.status === "refunded" || gift?.status === "failed") {
    await enqueue("gift-card-refunds", { giftId: gift.id }, { db: tx });
  }
  return {
    effect: "gift-contribution",
    contributionId: id,
    eventId: gift?.eventId ?? null,
    alreadyPaid: false,
    giftCollecting: gift?.status === "collecting",
  };
}
