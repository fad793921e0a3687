import { db } from "~/lib/db.server";
import { findTreeContribution, markTreeContributionRefunded } from "~/models/tree-contribution.server";
import { refundContributionPayment } from "~/services/payments/contribution-refund.server";

/**
 * The refund job of trees that could not be planted: the payment back through the adapter (keyed by
 * the contribution, so a retry refunds once) and the row marked refunded. The contributor hears of
 * it from the refund's own notice, which says why (docs/decisions/048).
 */
export async function refundTreeContribution(contributionId: string) {
  const contribution = await findTreeContribution(db(), contributionId);
  if (!contribution || contribution.status !== "failed") return;
  await refundContributionPayment(
    "tree-contribution",
    contribution,
    contribution.amount - contribution.amountRefunded,
    "Your trees could not be planted: the planting service could not take the order.",
  );
  await markTreeContributionRefunded(db(), contribution.id, contribution.amount);
}
