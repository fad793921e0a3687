import { isPaymentServiceError } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { noteRefundReason } from "~/models/receipt.server";
import { findTreeContribution, markTreeContributionRefunded } from "~/models/tree-contribution.server";
import { paymentsProvider } from "~/services/payments/provider.server";

/**
 * The refund job of trees that could not be planted: the payment back through the adapter (keyed by
 * the contribution, so a retry refunds once) and the row marked refunded. The contributor hears of
 * it from the refund's own notice, which says why (docs/decisions/048).
 */
export async function refundTreeContribution(contributionId: string) {
  const contribution = await findTreeContribution(db(), contributionId);
  if (!contribution || contribution.status !== "failed") return;
  const amount = contribution.amount - contribution.amountRefunded;
  if (amount > 0 && contribution.paymentIntentId) {
    await noteRefundReason(
      db(),
      contribution.paymentIntentId,
      "Your trees could not be planted: the planting service could not take the order.",
    );
    try {
      await paymentsProvider().refund({
        paymentIntentId: contribution.paymentIntentId,
        amount,
        idempotencyKey: `tree-contribution-refund:${contribution.id}`,
        metadata: { kind: "tree-contribution", treeContributionId: contribution.id },
      });
    } catch (error) {
      if (isPaymentServiceError(error)) throw new Error(`tree contribution ${contribution.id}: ${error.message}`);
      throw error;
    }
  }
  await markTreeContributionRefunded(db(), contribution.id, contribution.amount);
}
