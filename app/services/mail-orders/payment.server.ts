import type { Db } from "~/lib/db.server";
import { findMailOrder, updateMailOrder } from "~/models/mail-order.server";
import { checkoutSession, ourId } from "~/services/commerce/payment-event-schemas";
import { queuePlacement } from "./fulfilment.server";
import type { MailOrderPaidEffect } from "./mail-order-effect";

// What a completed checkout for a posted order does (called from the payment webhook's transaction,
// docs/decisions/019-payments.md): the order becomes paid once, and its placement is queued with it.

export async function mailOrderPaid(session: Record<string, unknown>, tx: Db, provider: string): Promise<MailOrderPaidEffect> {
  const read = checkoutSession.parse(session);
  if (read.payment_status !== undefined && read.payment_status !== "paid")
    return { effect: "ignored", reason: "the session is not paid yet" };
  const id = ourId.parse(read.metadata.mailOrderId);
  const { payment_intent: paymentIntentId, amount_total: amount } = read;
  if (!id || !paymentIntentId || amount === null) {
    return { effect: "ignored", reason: "the session lacks its order, payment or amount" };
  }
  const order = await findMailOrder(tx, id, { forUpdate: true });
  if (!order) {
    console.warn(`mail order ${id} is gone; payment ${paymentIntentId} should be refunded`);
    return { effect: "ignored", reason: `there is no mail order ${id}` };
  }
  // An order whose payment page expired (abandoned) and was paid all the same is honoured: the
  // money is in, the order goes out.
  if (order.status !== "awaiting_payment" && order.status !== "abandoned") {
    if (order.paymentIntentId !== paymentIntentId)
      console.warn(`mail order ${id} was already paid; payment ${paymentIntentId} should be refunded`);
    return { effect: "mail-order", mailOrderId: id, alreadyPaid: true };
  }
  if (amount !== order.totalAmount) console.warn(`mail order ${id}: paid ${amount}, priced at ${order.totalAmount}`);
  await updateMailOrder(tx, id, { status: "paid", provider, paymentIntentId, checkoutSessionId: read.id, paidAt: new Date() });
  await queuePlacement(id, { db: tx });
  return { effect: "mail-order", mailOrderId: id, alreadyPaid: false };
}
