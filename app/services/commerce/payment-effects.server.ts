import type { PaymentEvent } from "~/integrations/payments/payments-port";
import type { Db } from "~/lib/db.server";

/**
 * What a verified payment event changes (carts paid, memberships started or ended, refunds),
 * inside the webhook's transaction. Nothing yet: every event is taken into the ledger and ignored.
 */
export async function applyPaymentEvent(_event: PaymentEvent, _tx: Db): Promise<"applied" | "ignored"> {
  return "ignored";
}
