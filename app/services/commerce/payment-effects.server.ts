import type { Payment } from "drizzle/schema";
import { BASE_PRODUCT_KEY } from "~/domain/commerce/catalogue";
import type { PaymentEvent } from "~/integrations/payments/payments-port";
import type { Db } from "~/lib/db.server";
import { lockCart } from "~/models/cart.server";
import { setEventPaid } from "~/models/event.server";
import {
  findOrInsertPayment,
  findPaymentByProviderId,
  findInvoiceOfPayment,
  findPaymentOfCart,
  setPaymentRefund,
} from "~/models/payment.server";
import { findUserById, updateUser } from "~/models/user.server";
import { giftContributionPaid } from "~/services/gift-cards/contribution-effects.server";
import { mailOrderPaid } from "~/services/mail-orders/payment.server";
import { postcardPaid } from "~/services/postcards/postcard-effects.server";
import { treeContributionPaid } from "~/services/trees/tree-contribution-effects.server";
import { loadCartState } from "./cart-state.server";
import { checkoutExpired } from "./checkout-expiry.server";
import { cartFromMetadata } from "./checkout.server";
import { membershipInvoicePaid, renewalFailed, subscriptionChanged } from "./membership-effects.server";
import { ignored, type PaymentEffect } from "./payment-event-fields.server";
import { checkoutSession, ourId, refundedCharge, type CheckoutSession } from "./payment-event-schemas";
import { recordCheckoutReceipt } from "./receipts.server";
import { queueRefundNotice, receiptRefunded } from "./refund-notices.server";
import { recordSale } from "./sales.server";

// What a verified payment event does to our records (a membership's events: membership-effects.server.ts) (docs/decisions/018-what-payment-unlocks.md).
// The webhook route records the event's id and calls applyPaymentEvent inside that same
// transaction; every effect here is also safe to apply twice on its own.

/**
 * Applies a verified payment event inside `tx` (the webhook's transaction, which also records the
 * event's id): "applied" when it changed something of ours, "ignored" when it had nothing to change.
 */
export async function applyPaymentEvent(event: PaymentEvent, tx: Db, provider = "stripe"): Promise<"applied" | "ignored"> {
  return (await paymentEffect(event, tx, provider)).effect === "ignored" ? "ignored" : "applied";
}

/**
 * What a verified payment event does inside `tx`, in detail. `provider` names the payment service
 * that sent it (its payment ids are unique within that service).
 */
export async function paymentEffect(event: PaymentEvent, tx: Db, provider = "stripe"): Promise<PaymentEffect> {
  const object = event.data.object;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const effect = await checkoutPaid(object, tx, provider);
      // Every payment without an invoice of ours has a receipt, e-mailed once (docs/decisions/048).
      if (effect.effect !== "ignored" && effect.effect !== "cart-paid") await recordCheckoutReceipt(tx, effect, object, provider);
      return effect;
    }
    case "checkout.session.expired":
    case "checkout.session.async_payment_failed":
      return checkoutExpired(object, tx);
    case "charge.refunded":
      return chargeRefunded(object, tx);
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return subscriptionChanged(event, tx);
    case "invoice.payment_failed":
      return renewalFailed(event, tx);
    case "invoice.paid":
      return membershipInvoicePaid(event, tx, provider);
    default:
      return ignored(`${event.type} changes nothing here`);
  }
}

function checkoutPaid(object: Record<string, unknown>, tx: Db, provider: string): Promise<PaymentEffect> {
  const session = checkoutSession.parse(object);
  const { kind } = session.metadata;
  // A contribution to a group gift card has its own ledger (docs/decisions/023-group-gift-cards.md).
  if (kind === "gift-contribution") return giftContributionPaid(object, tx, provider);
  if (kind === "tree-contribution") return treeContributionPaid(object, tx, provider);
  // A printed postcard is paid on its own (docs/decisions/030-postcards.md).
  if (kind === "postcard") return postcardPaid(object, tx, provider);
  // A DVD or a photo book by post (docs/decisions/029-dvds-and-keepsakes-by-post.md).
  if (kind === "mail-order") return mailOrderPaid(object, tx, provider);
  return cartPaid(session, tx, provider);
}

async function cartPaid(session: CheckoutSession, tx: Db, provider: string): Promise<PaymentEffect> {
  const { metadata } = session;
  if (metadata.kind !== "cart") return ignored("not a cart's checkout");
  // A payment method that settles later (a bank debit) completes the session unpaid: its
  // async_payment_succeeded event comes when the money does.
  if (session.payment_status !== undefined && session.payment_status !== "paid") return ignored("the session is not paid yet");
  const cartId = ourId.parse(metadata.cartId);
  const { payment_intent: paymentIntent, amount_total: amount, currency } = session;
  if (!cartId || !paymentIntent || amount === null || !currency) return ignored("the session lacks its cart, payment or amount");
  const locked = await lockCart(tx, cartId);
  if (!locked) return ignored(`there is no cart ${cartId}`);
  const customerId = session.customer;
  if (customerId) await rememberCustomer(tx, locked.userId, customerId);
  const payment = {
    provider,
    providerPaymentId: paymentIntent,
    providerSessionId: session.id,
    providerCustomerId: customerId,
    amount,
    currency: currency.toLowerCase(),
    eventId: locked.eventId,
    userId: locked.userId,
  };
  const earlier = locked.status === "paid" ? await findPaymentOfCart(tx, locked.id) : null;
  if (locked.status === "paid" && earlier?.providerPaymentId !== paymentIntent) {
    // Paid twice (two tabs, or after a free checkout): the second payment is kept, unattached, to be refunded.
    await findOrInsertPayment(tx, { ...payment, cartId: null });
    console.warn(`cart ${locked.id} was already settled; payment ${paymentIntent} is a second one and should be refunded`);
    return ignored("the cart was already settled by another payment");
  }
  const recorded = await findOrInsertPayment(tx, { ...payment, cartId: locked.id });
  // What was paid for is the cart as it was when checkout started (the metadata says which
  // products, code and country): it may have changed since, in another tab.
  const sold = cartFromMetadata(metadata);
  const state = await loadCartState({ ...locked, status: "paid", promoCodeId: sold.promoCodeId, billingCountry: sold.country }, tx, {
    products: sold.products,
  });
  const sale = await recordSale(tx, { state, payment: recorded.payment, paidAt: new Date() });
  if (sale.created && amount !== state.pricing.totals.total) {
    console.warn(`cart ${locked.id}: paid ${amount} ${currency}, priced at ${state.pricing.totals.total}`);
  }
  return { effect: "cart-paid", cartId: locked.id, invoiceId: sale.invoice.id, alreadyPaid: !sale.created };
}

async function rememberCustomer(tx: Db, userId: string, customerId: string) {
  const user = await findUserById(tx, userId);
  if (user && !user.paymentCustomerId) await updateUser(tx, userId, { paymentCustomerId: customerId });
}

async function chargeRefunded(object: Record<string, unknown>, tx: Db): Promise<PaymentEffect> {
  const charge = refundedCharge.parse(object);
  const paymentIntent = charge.payment_intent;
  if (!paymentIntent) return ignored("the charge names no payment");
  const payment = await findPaymentByProviderId(tx, paymentIntent);
  // A payment with no invoice (a contribution, a postcard, a posted order) is on its receipt.
  if (!payment) return receiptRefunded(charge, tx);
  // The refunded total so far comes with every event: applying it again, or out of order, ends the same.
  const refunded = Math.max(payment.amountRefunded, charge.amount_refunded ?? 0);
  const full = charge.refunded || refunded >= payment.amount;
  const status: Payment["status"] = full ? "refunded" : refunded > 0 ? "partially_refunded" : "paid";
  await setPaymentRefund(tx, payment.id, refunded, status);
  // The payer is told of each refund once, with the total that grew (docs/decisions/048).
  await queueRefundNotice(tx, { ledger: "payment", id: payment.id, refunded, previously: payment.amountRefunded });
  // A full refund takes back what payment unlocked; a partial one (a goodwill gesture) leaves it.
  // A later purchase (add-ons bought once the Chorus was paid for) never sold the Chorus, so its
  // refund takes back only what it sold (no longer counted among the event's purchases).
  let eventPaid: boolean | null = null;
  if (full && payment.eventId && (await soldTheChorus(tx, payment.id))) {
    await setEventPaid(tx, payment.eventId, false);
    eventPaid = false;
  }
  return { effect: "refund", paymentId: payment.id, status, eventPaid };
}

/** Whether a payment paid for the Chorus itself: its invoice has the Chorus's line (a payment with no invoice is taken to have). */
async function soldTheChorus(tx: Db, paymentId: string) {
  const invoice = await findInvoiceOfPayment(tx, paymentId);
  return !invoice || invoice.lines.some((line) => line.key === BASE_PRODUCT_KEY);
}
