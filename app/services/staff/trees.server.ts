import { formatMoney } from "~/domain/commerce/money";
import { db } from "~/lib/db.server";
import { listRecentTreeContributions } from "~/models/tree-contribution.server";

const STATUS_WORDS = {
  pending: "Awaiting payment",
  abandoned: "Not paid: the payment page expired",
  paid: "Paid, planting",
  planted: "Planted",
  failed: "Planting failed, refunding",
  refunded: "Refunded",
} as const;

/** Staff: the latest trees paid for, with where their planting stands and why one failed. */
export async function listTreesForStaff() {
  const rows = await listRecentTreeContributions(db());
  return rows.map(({ contribution: c, eventUuid }) => ({
    id: c.id,
    createdAt: c.createdAt.toISOString(),
    eventUuid,
    quantity: c.quantity,
    amount: formatMoney(c.amount, c.currency),
    refunded: c.amountRefunded > 0 ? formatMoney(c.amountRefunded, c.currency) : null,
    status: c.status,
    statusWords: STATUS_WORDS[c.status],
    email: c.email,
    plantingId: c.plantingId,
    failure: c.failure,
  }));
}
