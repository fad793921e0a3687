import { PROVISIONAL_HOLD_MS } from "~/domain/commerce/holds";
import type { CheckoutSessionRef } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { ApiError } from "~/lib/http.server";
import { attachHoldToSession, deleteHoldByCheckoutKey, findHoldByCheckoutKey, insertPromoCodeHold } from "~/models/promo-code-hold.server";
import { lockPromoCode } from "~/models/promo-code.server";
import type { CartState } from "./cart-state.server";
import { judgePromoCode } from "./promo-codes.server";

// A promo code's use is held while a payment page for it is open, as Stripe holds a promotion code's
// redemption for an open Checkout session (docs/decisions/046-limits-held-while-a-page-is-open.md):
// held when the page opens, let go when it expires or could not be opened, taken over by the
// redemption when the cart is settled.

export const promoCodeRefused = (message: string) => new ApiError(409, "PROMO_CODE_INVALID", message, { promoCode: message });

/**
 * Holds a use of the cart's code for the page about to open under `checkoutKey`, judged under the
 * code's row lock so two carts cannot both take its last use. True when a hold was made now (the
 * caller lets it go if the page cannot be opened); false when there is nothing to hold or the same
 * page (a second Pay press) holds it already. Refused with 409 PROMO_CODE_INVALID and the reason.
 */
export async function holdPromoUse(state: Pick<CartState, "cart" | "organiser" | "promoCode" | "pricing">, checkoutKey: string) {
  const { cart, promoCode } = state;
  if (!promoCode || !state.pricing.promotion) return false;
  return db().transaction(async (tx) => {
    const code = await lockPromoCode(tx, promoCode.id);
    if (!code) throw promoCodeRefused("This code no longer exists.");
    const earlier = await findHoldByCheckoutKey(tx, checkoutKey);
    if (earlier && earlier.expiresAt.getTime() > Date.now()) return false;
    if (earlier) await deleteHoldByCheckoutKey(tx, checkoutKey);
    const verdict = await judgePromoCode(code, state.organiser, tx, cart.id);
    if (!verdict.applies) throw promoCodeRefused(verdict.message);
    await insertPromoCodeHold(tx, {
      promoCodeId: code.id,
      cartId: cart.id,
      userId: cart.userId,
      checkoutKey,
      expiresAt: new Date(Date.now() + PROVISIONAL_HOLD_MS),
    });
    return true;
  });
}

/** The page is open: its hold lasts exactly as long as the page can be paid (or provisionally, when the service does not say). */
export const holdUntilPageExpires = (checkoutKey: string, session: CheckoutSessionRef) =>
  attachHoldToSession(db(), checkoutKey, session.id, session.expiresAt);

/** The page could not be opened: the use it was to hold is free again. */
export const letGoOfHold = (checkoutKey: string) => deleteHoldByCheckoutKey(db(), checkoutKey);
