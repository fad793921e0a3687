import type { Cart, CartProductRow, Event, PromoCode, User } from "drizzle/schema";
import { BASE_PRODUCT_KEY, isLaterPurchase, productsLeftFor, type Product } from "~/domain/commerce/catalogue";
import { inclusionOf, priceCart, type Pricing, type PricingContext } from "~/domain/commerce/pricing";
import type { PromoRule } from "~/domain/commerce/promo-codes";
import { coveredByMembership, isFreeOccasion } from "~/domain/commerce/unlock";
import { db, type Db } from "~/lib/db.server";
import { listCartProducts } from "~/models/cart.server";
import { findEventById } from "~/models/event.server";
import { listPurchasedKeysOfEvent } from "~/models/payment.server";
import { findPromoCodeById, lockPromoCode } from "~/models/promo-code.server";
import { findUserById } from "~/models/user.server";
import { judgePromoCode, ruleOf } from "./promo-codes.server";

// A cart read and priced: everything its prices depend on (the event, its organiser, its products,
// its promo code judged again) and what it may still offer. Changing a cart is in carts.server.ts,
// what the API and the page show of it in cart-views.server.ts.

export const pricingContextOf = (
  event: Pick<Event, "occasion" | "includedWithMembershipAt">,
  organiser: User | null,
  products: readonly CartProductRow[] = [{ key: BASE_PRODUCT_KEY, quantity: 1 }],
): PricingContext => ({
  freeOccasion: isFreeOccasion(event.occasion),
  // A Chorus started or checked out as a member keeps what the membership included (docs/decisions/047).
  member: coveredByMembership(event, organiser),
  laterPurchase: isLaterPurchase(products),
});

/**
 * What a cart may still offer: in a first cart, every upsell and add-on not bought already (what a
 * membership includes is shown as included); in a later purchase, only what the event does not
 * have in any way.
 */
export function offersOf(event: Event, context: PricingContext, purchased: ReadonlySet<string>): Product[] {
  const has = (key: string) => purchased.has(key) || (!!context.laterPurchase && inclusionOf(key, context) !== null);
  return productsLeftFor(event, has);
}

/** A cart with everything its prices depend on. */
export interface CartState {
  cart: Cart;
  event: Event;
  organiser: User;
  products: CartProductRow[];
  promoCode: PromoCode | null;
  /** Why the cart's code does not count now (expired since it was applied, used up, covers nothing in it); null when it does or there is none. */
  promoProblem: string | null;
  /** The code may no longer be used at all (not merely covering nothing): paying must not go ahead as if it did. */
  promoRefused: boolean;
  /** The code's rule when it may be used (whether or not it covers anything in the cart now). */
  promoRule: PromoRule | null;
  pricing: Pricing;
  /** A cart for what is bought after the Chorus was paid for: the Chorus itself is not in it. */
  laterPurchase: boolean;
  /** The upsells and add-ons this cart may offer (those the event has already are left out). */
  offers: Product[];
}

/** Reads and prices a cart; inside a transaction that locked the cart, with exact redemption counts. */
export async function loadCartState(
  cart: Cart,
  tx: Db = db(),
  options: { lockPromo?: boolean; products?: CartProductRow[] | null } = {},
): Promise<CartState> {
  const event = (await findEventById(tx, cart.eventId, { withDeleted: true }))!;
  const organiser = (await findUserById(tx, cart.userId))!;
  const products = options.products ?? (await listCartProducts(tx, cart.id));
  const promoCode = cart.promoCodeId
    ? options.lockPromo
      ? await lockPromoCode(tx, cart.promoCodeId)
      : await findPromoCodeById(tx, cart.promoCodeId)
    : null;
  let promoProblem: string | null = null;
  let promoRefused = false;
  // A paid cart keeps the discount it was sold with; an open one is judged again on every read.
  if (promoCode && cart.status === "open") {
    const verdict = await judgePromoCode(promoCode, organiser, tx, cart.id);
    if (!verdict.applies) [promoProblem, promoRefused] = [verdict.message, true];
  }
  const usable = promoCode && !promoProblem ? ruleOf(promoCode) : null;
  const context = pricingContextOf(event, organiser, products);
  const pricing = priceCart(products, context, usable, cart.billingCountry);
  if (promoCode && !promoProblem && !pricing.promotion) promoProblem = "This code does not apply to anything in your cart.";
  // A paid cart's own products are among those purchased: it offers what is left beside it.
  const offers = offersOf(event, context, await listPurchasedKeysOfEvent(tx, event.id));
  return {
    cart,
    event,
    organiser,
    products,
    promoCode,
    promoProblem,
    promoRefused,
    promoRule: usable,
    pricing,
    laterPurchase: !!context.laterPurchase,
    offers,
  };
}
