import type { Cart, Invoice, Payment } from "drizzle/schema";
import { enqueue } from "~/jobs/queue.server";
import type { Db } from "~/lib/db.server";
import { markCartPaid, setCartAsSold } from "~/models/cart.server";
import { markIncludedWithMembership, setEventPaid } from "~/models/event.server";
import { findOrInsertInvoice } from "~/models/payment.server";
import { releaseHoldsOfCart } from "~/models/promo-code-hold.server";
import { insertRedemption } from "~/models/promo-code.server";
import type { CartState } from "./cart-state.server";

/**
 * What a settled cart leaves behind, in the caller's transaction: the cart paid, the Chorus paid
 * (unless it is a later purchase),
 * an invoice with the lines as they were sold, the promo code's redemption, and (when money
 * changed hands) the receipt queued. Each write is once per cart, so running it again changes nothing.
 */
export async function recordSale(
  tx: Db,
  input: { state: CartState; payment: Payment | null; paidAt: Date },
): Promise<{ cart: Cart; invoice: Invoice; created: boolean }> {
  const { state, payment, paidAt } = input;
  const { pricing } = state;
  await setCartAsSold(tx, state.cart.id, {
    products: state.products,
    promoCodeId: state.promoCode?.id ?? null,
    billingCountry: state.cart.billingCountry,
  });
  const cart = (await markCartPaid(tx, state.cart.id, state.cart.paidAt ?? paidAt))!;
  // A later purchase adds to a Chorus already paid for: its standing is the first cart's to give.
  if (!state.laterPurchase) await setEventPaid(tx, state.event.id, true);
  // Checked out as a member: the Chorus keeps what the membership included (docs/decisions/047).
  if (pricing.lineItems.some((line) => line.included === "membership")) await markIncludedWithMembership(tx, state.event.id, paidAt);
  const { invoice, created } = await findOrInsertInvoice(tx, {
    userId: state.cart.userId,
    cartId: state.cart.id,
    eventId: state.event.id,
    paymentId: payment?.id ?? null,
    lines: pricing.lineItems.map((l) => ({
      key: l.key,
      name: l.name,
      quantity: l.quantity,
      unitAmount: l.unitAmount,
      amount: l.amount,
      discount: l.discount,
      net: l.net,
      included: l.included,
    })),
    subtotal: pricing.totals.subtotal,
    discount: pricing.totals.discount,
    tax: pricing.totals.tax,
    total: payment ? payment.amount : pricing.totals.total,
    currency: pricing.totals.currency,
    taxLabel: pricing.taxation.label,
    taxBasisPoints: pricing.taxation.basisPoints,
    country: pricing.taxation.country,
    promoCode: pricing.promotion?.code ?? null,
    paidAt,
  });
  if (state.promoCode && pricing.promotion) {
    await insertRedemption(tx, {
      promoCodeId: state.promoCode.id,
      userId: state.cart.userId,
      cartId: state.cart.id,
      discount: pricing.promotion.discount,
      currency: pricing.totals.currency,
    });
  }
  // The redemption counts from now on in place of what the cart's payment pages held (docs/decisions/046).
  await releaseHoldsOfCart(tx, state.cart.id);
  if (created && invoice.total > 0) {
    await enqueue("invoice-receipt", { invoiceId: invoice.id }, { db: tx });
  }
  return { cart, invoice, created };
}
