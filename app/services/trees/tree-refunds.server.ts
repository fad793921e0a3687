import { formatMoney } from "~/domain/commerce/money";
import { PRODUCT_NAME } from "~/domain/product";
import { isPaymentServiceError } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { findTreeContribution, markTreeContributionRefunded } from "~/models/tree-contribution.server";
import { deliverOnce } from "~/services/events/delivery.server";
import { renderEmail } from "~/services/messaging/email-layout.server";
import { sendMail } from "~/services/messaging/mail.server";
import { paymentsProvider } from "~/services/payments/provider.server";

const trees = (count: number) => (count === 1 ? "1 tree" : `${count} trees`);

/**
 * The refund job of trees that could not be planted: the payment back through the adapter (keyed by
 * the contribution, so a retry refunds once), the row marked refunded, and the contributor told once.
 */
export async function refundTreeContribution(contributionId: string) {
  const contribution = await findTreeContribution(db(), contributionId);
  if (!contribution || contribution.status !== "failed") return;
  const amount = contribution.amount - contribution.amountRefunded;
  if (amount > 0 && contribution.paymentIntentId) {
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
  const paid = formatMoney(contribution.amount, contribution.currency);
  const mail = renderEmail({
    subject: `Your ${paid} for ${trees(contribution.quantity)} is refunded`,
    heading: `${contribution.name}, your trees could not be planted`,
    paragraphs: [
      `You paid ${paid} to plant ${trees(contribution.quantity)} in honour of the recipient of a ${PRODUCT_NAME}, but the planting service could not take the order.`,
      "We have refunded it in full to the card you paid with; it can take a few days to show.",
    ],
  });
  await deliverOnce(`tree-refund:${contribution.id}:email`, "email", contribution.email, () =>
    sendMail({ to: contribution.email, ...mail }),
  );
}
