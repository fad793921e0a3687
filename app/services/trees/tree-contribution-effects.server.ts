import { enqueue } from "~/jobs/queue.server";
import type { Db } from "~/lib/db.server";
import { lockTreeContribution, markTreeContributionPaid } from "~/models/tree-contribution.server";
import { readPaidCheckoutSession } from "~/services/commerce/paid-checkout-session";

// What a completed checkout for trees does, inside the payment webhook's transaction
// (docs/decisions/019-payments.md): the row becomes paid once, and planting is queued in the same
// transaction, keyed by the contribution, so a repeated event or a second worker plants once.

export type TreeContributionEffect = { effect: "tree-contribution"; contributionId: string; eventId: string; alreadyPaid: boolean };

export async function treeContributionPaid(
  session: Record<string, unknown>,
  tx: Db,
  provider: string,
): Promise<TreeContributionEffect | { effect: "ignored"; reason: string }> {
  const read = readPaidCheckoutSession(session, "treeContributionId");
  if (!read.paid) return { effect: "ignored", reason: "the session is not paid yet" };
  const { ourId: id, paymentIntentId, amount, checkoutSessionId } = read;
  if (!id || !paymentIntentId || amount === null)
    return { effect: "ignored", reason: "the session lacks its contribution, payment or amount" };
  const contribution = await lockTreeContribution(tx, id);
  if (!contribution) {
    console.warn(`tree contribution ${id} is gone; payment ${paymentIntentId} should be refunded`);
    return { effect: "ignored", reason: `there is no tree contribution ${id}` };
  }
  // A contribution whose payment page expired (abandoned) and was paid all the same is honoured.
  if (contribution.status !== "pending" && contribution.status !== "abandoned")
    return { effect: "tree-contribution", contributionId: id, eventId: contribution.eventId, alreadyPaid: true };
  if (amount !== contribution.amount) console.warn(`tree contribution ${id}: paid ${amount}, asked ${contribution.amount}`);
  await markTreeContributionPaid(tx, id, { provider, paymentIntentId, checkoutSessionId });
  await enqueue("tree-planting", { treeContributionId: id }, { db: tx });
  return { effect: "tree-contribution", contributionId: id, eventId: contribution.eventId, alreadyPaid: false };
}
