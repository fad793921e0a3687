import { enqueue } from "~/jobs/queue.server";
import type { Db } from "~/lib/db.server";
import { findPostcard, updatePostcard } from "~/models/postcard.server";
import { readPaidCheckoutSession } from "~/services/commerce/paid-checkout-session";

// What a completed checkout for a postcard does (called from the payment webhook's transaction,
// docs/decisions/019-payments.md): the card becomes paid once, and its sending is queued in the same
// transaction, so a paid card is never left unsent.

export type PostcardEffect = { effect: "postcard-paid"; postcardId: string; alreadyPaid: boolean };

export async function postcardPaid(
  session: Record<string, unknown>,
  tx: Db,
  provider: string,
): Promise<PostcardEffect | { effect: "ignored"; reason: string }> {
  const read = readPaidCheckoutSession(session, "postcardId");
  if (!read.paid) return { effect: "ignored", reason: "the session is not paid yet" };
  const { ourId: id, paymentIntentId, checkoutSessionId } = read;
  if (!id || !paymentIntentId) return { effect: "ignored", reason: "the session lacks its postcard or payment" };
  const postcard = await findPostcard(tx, id, { forUpdate: true });
  if (!postcard) {
    console.warn(`postcard ${id} is gone; payment ${paymentIntentId} should be refunded`);
    return { effect: "ignored", reason: `there is no postcard ${id}` };
  }
  // A card whose payment page expired went back to draft; paid all the same, it is honoured and sent
  // as it now stands.
  if (postcard.status !== "draft" && postcard.status !== "checkout") {
    if (postcard.paymentIntentId !== paymentIntentId)
      console.warn(`postcard ${id} was already paid; payment ${paymentIntentId} should be refunded`);
    return { effect: "postcard-paid", postcardId: id, alreadyPaid: true };
  }
  await updatePostcard(tx, id, {
    status: "paid",
    paymentProvider: provider,
    paymentIntentId,
    checkoutSessionId,
    paidAt: new Date(),
  });
  await enqueue("postcard-send", { postcardId: id }, { db: tx });
  return { effect: "postcard-paid", postcardId: id, alreadyPaid: false };
}
