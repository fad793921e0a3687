import type { Cart, CartProductRow, User } from "drizzle/schema";
import { formatMoney } from "~/domain/commerce/money";
import { formatRate } from "~/domain/commerce/tax";
import { isPaymentServiceError, type PaymentCheckoutInput } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError, isApiError } from "~/lib/http.server";
import { setCartCheckoutSession } from "~/models/cart.server";
import { paymentsProvider } from "~/services/payments/provider.server";
import { loadCartState, type CartState } from "./cart-state.server";
import { dropPromoCode, refuseUnsellable } from "./carts.server";
import { holdPromoUse, holdUntilPageExpires, letGoOfHold, promoCodeRefused } from "./promo-holds.server";

// Card checkout of a cart: what the payment service is asked to charge, always from our own
// pricing, and what comes back on its events so the webhook knows what was sold.

export interface CheckoutUrls {
  successUrl: string;
  cancelUrl: string;
}

/** The key of a cart's checkout as it stands: one payment page per version of the cart. */
export const checkoutKeyOf = (cart: Pick<Cart, "id" | "version">) => `cart:${cart.id}:v${cart.version}`;

/** "chorus:1,premium:1": the cart's products, short enough for a metadata value. */
const encodeProducts = (products: readonly CartProductRow[]) => products.map((p) => `${p.key}:${p.quantity}`).join(",");

function decodeProducts(value: unknown): CartProductRow[] | null {
  if (typeof value !== "string" || !value) return null;
  const products = value.split(",").map((part) => {
    const [key = "", quantity = "1"] = part.split(":");
    return { key, quantity: Math.max(1, Number.parseInt(quantity, 10) || 1) };
  });
  return products.filter((p) => p.key);
}

/** What a checkout's metadata says was sold: products, promo code and billing country. */
export function cartFromMetadata(metadata: Record<string, unknown>) {
  const text = (v: unknown) => (typeof v === "string" && v ? v : null);
  return {
    products: decodeProducts(metadata.products),
    promoCodeId: text(metadata.promoCodeId),
    country: text(metadata.country),
  };
}

/**
 * The payment service's checkout for a priced cart. Each line is charged at its price, the promo
 * code's discount is a line of its own (the payment page shows both, then the total), and tax is
 * a line of its own, so the lines less the discount add up to the cart's total exactly. The
 * idempotency key is the cart's id and version: pressing Pay twice opens the same session, and a
 * changed cart a new one.
 */
export function checkoutInputForCart(
  state: Pick<CartState, "cart" | "event" | "products" | "promoCode" | "pricing">,
  user: Pick<User, "email" | "paymentCustomerId">,
  urls: CheckoutUrls,
): PaymentCheckoutInput {
  const { cart, pricing } = state;
  const lines = pricing.lineItems
    .filter((l) => l.amount > 0)
    .map((l) => ({
      name: l.name,
      description: l.gives.join(" · "),
      unitAmount: l.unitAmount,
      currency: l.currency,
      quantity: l.quantity,
    }));
  if (pricing.taxation.amount > 0) {
    lines.push({
      name: `${pricing.taxation.label} ${formatRate(pricing.taxation)}`,
      description: `${pricing.taxation.label} for ${pricing.taxation.country}`,
      unitAmount: pricing.taxation.amount,
      currency: pricing.totals.currency,
      quantity: 1,
    });
  }
  return {
    customerEmail: user.email,
    customerId: user.paymentCustomerId,
    clientReferenceId: cart.id,
    metadata: {
      kind: "cart",
      cartId: cart.id,
      cartVersion: String(cart.version),
      eventId: cart.eventId,
      // The payment service's return page links back to this event.
      eventUuid: state.event.uuid,
      userId: cart.userId,
      products: encodeProducts(state.products),
      ...(state.promoCode && pricing.promotion ? { promoCodeId: state.promoCode.id } : {}),
      ...(cart.billingCountry ? { country: cart.billingCountry } : {}),
    },
    successUrl: urls.successUrl,
    cancelUrl: urls.cancelUrl,
    idempotencyKey: checkoutKeyOf(cart),
    lines,
    ...(pricing.promotion && pricing.totals.discount > 0
      ? { discount: { name: `${pricing.promotion.code} (${pricing.promotion.description})`, amount: pricing.totals.discount } }
      : {}),
  };
}

/**
 * Starts paying for a cart by card: the payment service's hosted page to send the payer to. A
 * cart that costs nothing is settled with a free checkout instead; a code that may no longer be
 * used is said before any money moves. A use of the cart's code is held while the page is open
 * (promo-holds.server.ts), so its limit is never oversold; a code that merely covers nothing in the
 * cart is left out of the payment.
 */
export async function startCartCheckout(state: CartState, user: Pick<User, "email" | "paymentCustomerId">, urls: CheckoutUrls) {
  // A later purchase is for a paid Chorus; any other cart of a paid Chorus would sell it twice.
  if (state.cart.status !== "open" || (state.event.paid && !state.laterPurchase))
    throw new ApiError(409, "CART_PAID", "This Chorus is paid for already.");
  refuseUnsellable(state);
  if (state.promoRefused && state.promoProblem) throw promoCodeRefused(state.promoProblem);
  if (state.pricing.totals.total === 0) throw new ApiError(409, "NOTHING_TO_PAY", "This cart costs nothing: confirm it without a payment.");
  const input = checkoutInputForCart(state, user, urls);
  const heldNow = await holdPromoUse(state, input.idempotencyKey);
  let session;
  try {
    session = await paymentsProvider().createPaymentCheckout(input);
  } catch (error) {
    if (heldNow) await letGoOfHold(input.idempotencyKey);
    throw error;
  }
  if (state.pricing.promotion) await holdUntilPageExpires(input.idempotencyKey, session);
  await setCartCheckoutSession(db(), state.cart.id, session.id);
  return session;
}

/** A code taken out of a cart, and why. */
export interface DroppedCode {
  code: string;
  reason: string;
}

/**
 * The cart ready to pay: a code that may no longer be used (used up or held by others' payments
 * while it sat in the cart, expired, paused) is taken out of it rather than block paying, and said.
 */
export async function withoutRefusedCode(cart: Cart): Promise<{ state: CartState; dropped: DroppedCode | null }> {
  const state = await loadCartState(cart);
  if (!state.promoCode || !state.promoRefused) return { state, dropped: null };
  return dropCodeOf(state, state.promoProblem ?? "This code can no longer be used.");
}

/** Takes the cart's code out (its version goes up) and reads the cart again. */
export async function dropCodeOf(state: CartState, reason: string): Promise<{ state: CartState; dropped: DroppedCode | null }> {
  if (!state.promoCode) return { state, dropped: null };
  const changed = await dropPromoCode(state.cart.id);
  return { state: await loadCartState(changed ?? state.cart), dropped: { code: state.promoCode.code, reason } };
}

const isRefusedCode = (error: unknown) => isApiError(error) && error.code === "PROMO_CODE_INVALID";

/**
 * `POST /v2/stripe/create-checkout-session`: the payment page for an organiser's cart, priced as the
 * cart stands. When the caller says which version of the cart they showed, a cart changed since
 * (another tab) is refused with the new cart instead of charging what they did not see. A code that
 * can no longer be used is taken out of the cart and said (409): the next call pays without it.
 */
export async function createCartCheckoutSession(cart: Cart, shownVersion: number | undefined) {
  if (shownVersion !== undefined && shownVersion !== cart.version) {
    throw new ApiError(409, "CART_CHANGED", "This cart changed since it was shown: check the new total, then pay.");
  }
  let state = await loadCartState(cart);
  const base = env().APP_URL;
  try {
    const session = await startCartCheckout(state, state.organiser, {
      successUrl: `${base}/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${base}/e/${state.event.uuid}/checkout`,
    });
    return { id: session.id, url: session.url };
  } catch (error) {
    if (isPaymentServiceError(error)) throw new ApiError(503, "PAYMENT_SERVICE_UNAVAILABLE", error.message);
    if (!isRefusedCode(error)) throw error;
    ({ state } = await dropCodeOf(state, (error as ApiError).message));
    const message = `${(error as ApiError).message} It was taken out of your cart, which now comes to ${formatMoney(state.pricing.totals.total, state.pricing.totals.currency)}: check it, then pay.`;
    throw new ApiError(409, "PROMO_CODE_INVALID", message, { promoCode: message });
  }
}
