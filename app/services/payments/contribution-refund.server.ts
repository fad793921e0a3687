import { isPaymentServiceError } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { noteRefundReason } from "~/models/receipt.server";
import { paymentsProvider } from "./provider.server";

/** A paid share of a gift card or of trees, as its ledger row keeps it. */
interface PaidContribution {
  id: string;
  paymentIntentId: string | null;
}

const METADATA_KEY = { "gift-contribution": "giftContributionId", "tree-contribution": "treeContributionId" } as const;

/**
 * `amount` of a contribution's payment back to its card through the payments adapter: keyed by the
 * contribution (its overflow, docs/decisions/046, by a key of its own), so a retry refunds once, and
 * with the reason its payer's refund notice gives (docs/decisions/048). A payment service's failure
 * is thrown for the queue to try again with its growing delays. The caller marks its row refunded.
 */
export async function refundContributionPayment(
  kind: keyof typeof METADATA_KEY,
  contribution: PaidContribution,
  amount: number,
  reason: string,
  { overflow = false } = {},
) {
  if (amount <= 0 || !contribution.paymentIntentId) return;
  await noteRefundReason(db(), contribution.paymentIntentId, reason);
  try {
    await paymentsProvider().refund({
      paymentIntentId: contribution.paymentIntentId,
      amount,
      idempotencyKey: `${kind}${overflow ? "-overflow" : ""}-refund:${contribution.id}`,
      metadata: { kind, [METADATA_KEY[kind]]: contribution.id },
    });
  } catch (error) {
    if (isPaymentServiceError(error)) throw new Error(`${kind.replace("-", " ")} ${contribution.id}: ${error.message}`);
    throw error;
  }
}
