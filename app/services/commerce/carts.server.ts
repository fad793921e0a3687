import type { Cart, CartProductRow, Event, User } from "drizzle/schema";
import { BASE_PRODUCT_KEY, choosableKeys, productByKey } from "~/domain/commerce/catalogue";
import { formatMoney } from "~/domain/commerce/money";
import { normaliseCode } from "~/domain/commerce/promo-codes";
import { db } from "~/lib/db.server";
import { ApiError, badRequest, isApiError, notFound } from "~/lib/http.server";
import {
  changeCart,
  findCartById,
  findOrInsertOpenCart,
  findOpenCartOfEvent,
  findPaidCartOfEvent,
  listCartProducts,
  lockCart,
  replaceCartProducts,
} from "~/models/cart.server";
import { findInvoiceOfCart, listPurchasedKeysOfEvent } from "~/models/payment.server";
import { findPromoCodeByCode } from "~/models/promo-code.server";
import { findUserById } from "~/models/user.server";
import { requireManager } from "~/services/events/events.server";
import type { CartUpdate } from "./cart-input.server";
import { loadCartState, offersOf, pricingContextOf, type CartState } from "./cart-state.server";
import { cartView, cartViewOf } from "./cart-views.server";
import { judgePromoCode } from "./promo-codes.server";
import { recordSale } from "./sales.server";

// Changing the cart of an event (spec §3 "Cart", §7.2 Carts): one open cart per event, owned by its
// organiser, priced from the catalogue on every read (cart-state.server.ts). The browser chooses products by key, a
// promo code and a billing country; it never sends an amount. Once the Chorus is paid for, the
// event's next cart is a later purchase: only the upsells and add-ons it does not have yet.

export const cartNotFound = () => notFound("There is no cart with this id.");

/**
 * POST /v2/carts: the event's cart, made on first ask with the Chorus in it. Once the Chorus is
 * paid for, a later purchase: a cart without the Chorus, offering only what the event does not
 * have yet. A paid Chorus with nothing left to buy answers with the cart it was paid with.
 */
export async function openCartOf(event: Event) {
  return (await openCartStateOf(event)).view;
}

/** The event's cart as openCartOf finds it, read and priced, with its view. */
export async function openCartStateOf(event: Event) {
  const found = await openCartFor(event);
  const cart = found.status === "open" ? await fitCartToEvent(found, event) : found;
  const state = await loadCartState(cart);
  return { state, view: cartView(state, cart.status === "paid" ? await findInvoiceOfCart(db(), cart.id) : null) };
}

async function openCartFor(event: Event) {
  const [open, organiser] = await Promise.all([findOpenCartOfEvent(db(), event.id), findUserById(db(), event.creatorId)]);
  if (event.paid && !open) {
    const left = offersOf(event, pricingContextOf(event, organiser, []), await listPurchasedKeysOfEvent(db(), event.id));
    const paid = left.length ? null : await findPaidCartOfEvent(db(), event.id);
    if (paid) return paid;
  }
  return (
    open ??
    findOrInsertOpenCart(db(), {
      eventId: event.id,
      userId: event.creatorId,
      products: event.paid ? [] : [{ key: BASE_PRODUCT_KEY, quantity: 1 }],
    })
  );
}

/**
 * An open cart made before the event's standing changed (the Chorus paid for in another way, or
 * its payment refunded in full) is brought in line: the Chorus in it exactly when it is not paid
 * for, and nothing the event already has. A change counts as one (the version goes up).
 */
async function fitCartToEvent(cart: Cart, event: Event) {
  return db().transaction(async (tx) => {
    const locked = await lockCart(tx, cart.id);
    if (!locked || locked.status !== "open") return locked ?? cart;
    const current = await listCartProducts(tx, cart.id);
    const purchased = await listPurchasedKeysOfEvent(tx, event.id);
    const organiser = await findUserById(tx, event.creatorId);
    const allowed = new Set(offersOf(event, pricingContextOf(event, organiser, event.paid ? [] : undefined), purchased).map((p) => p.key));
    const kept = current.filter((p) => p.key !== BASE_PRODUCT_KEY && allowed.has(p.key));
    const fitting = event.paid ? kept : [{ key: BASE_PRODUCT_KEY, quantity: 1 }, ...kept];
    if (sameProducts(fitting, current)) return locked;
    await replaceCartProducts(tx, cart.id, fitting);
    return (await changeCart(tx, cart.id, {})) ?? locked;
  });
}

/** A cart and its event, for the organiser of that event (or an admin) only. */
export async function requireCartManager(user: User | null, cartId: string) {
  const cart = await findCartById(db(), cartId);
  if (!cart) throw cartNotFound();
  try {
    const { event, viewer } = await requireManager(user, cart.eventId);
    return { cart, event, viewer };
  } catch (error) {
    // Someone else's cart does not exist for them (its event's id would otherwise be confirmed).
    if (isApiError(error) && error.status === 403) throw cartNotFound();
    throw error;
  }
}

const paidAlready = () => new ApiError(409, "CART_PAID", "This cart is paid for already.");

/** PUT /v2/carts/{id}: products chosen from what applies, a promo code (or none), a billing country. */
export async function updateCart(cart: Cart, event: Event, input: CartUpdate) {
  if (cart.status !== "open") throw paidAlready();
  const changes: Parameters<typeof changeCart>[2] = {};
  if (input.billingCountry !== undefined) changes.billingCountry = input.billingCountry || null;
  if (input.promoCode !== undefined) {
    const typed = input.promoCode ? normaliseCode(input.promoCode) : "";
    if (!typed) changes.promoCodeId = null;
    else {
      const code = await findPromoCodeByCode(db(), typed);
      if (!code) throw badRequest("Some fields need your attention.", { promoCode: "We don't know this code. Check it and try again." });
      // The code already in the cart, sent again with the rest of the form (Pay, or a box ticked), is
      // not judged again here: if it can no longer be used, paying takes it out and says why
      // (checkout.server.ts) rather than refuse the whole form.
      if (code.id !== cart.promoCodeId) {
        const organiser = (await findUserById(db(), cart.userId))!;
        const verdict = await judgePromoCode(code, organiser, db(), cart.id);
        if (!verdict.applies) throw badRequest("Some fields need your attention.", { promoCode: verdict.message });
      }
      changes.promoCodeId = code.id;
    }
  }
  let products: CartProductRow[] | null = null;
  if (input.selected !== undefined) {
    const allowed = choosableKeys(event);
    const unknown = input.selected.filter((key) => key !== BASE_PRODUCT_KEY && !allowed.has(key));
    if (unknown.length)
      throw badRequest("Some fields need your attention.", { selected: `${unknown[0]} is not something this Chorus can have.` });
    const current = await loadCartState(cart);
    const offered = new Set(current.offers.map((p) => p.key));
    const had = input.selected.filter((key) => key !== BASE_PRODUCT_KEY && !offered.has(key));
    if (had.length)
      throw badRequest("Some fields need your attention.", { selected: `This Chorus has ${productByKey(had[0]!)!.name} already.` });
    const keys = [...new Set(input.selected.filter((key) => key !== BASE_PRODUCT_KEY))].map((key) => ({ key, quantity: 1 }));
    // A later purchase never holds the Chorus again.
    products = current.laterPurchase ? keys : [{ key: BASE_PRODUCT_KEY, quantity: 1 }, ...keys];
  }
  const changed = await db().transaction(async (tx) => {
    const locked = await lockCart(tx, cart.id);
    if (!locked || locked.status !== "open") throw paidAlready();
    // Only a real change counts: saving the same choices again keeps the version (and its checkout).
    const current = await listCartProducts(tx, cart.id);
    const productsChange = products && !sameProducts(products, current) ? products : null;
    const fieldChanges = Object.fromEntries(
      Object.entries(changes).filter(([key, value]) => locked[key as keyof typeof changes] !== value),
    ) as typeof changes;
    if (!productsChange && !Object.keys(fieldChanges).length) return locked;
    if (productsChange) await replaceCartProducts(tx, cart.id, productsChange);
    return changeCart(tx, cart.id, fieldChanges);
  });
  if (!changed) throw paidAlready();
  // A code that is valid but covers nothing in the cart is kept (the buyer may add what it covers) and said so.
  return cartView(await loadCartState(changed));
}

/** Takes the code out of an open cart; its version goes up (a page opened with the code is not reused). */
export async function dropPromoCode(cartId: string) {
  return db().transaction(async (tx) => {
    const locked = await lockCart(tx, cartId);
    if (!locked || locked.status !== "open" || !locked.promoCodeId) return locked;
    return changeCart(tx, cartId, { promoCodeId: null });
  });
}

const sameProducts = (a: readonly CartProductRow[], b: readonly CartProductRow[]) => {
  const key = (list: readonly CartProductRow[]) =>
    list
      .map((p) => `${p.key}:${p.quantity}`)
      .sort()
      .join(",");
  return key(a) === key(b);
};

/**
 * POST /v2/carts/{id}/finalize: a cart that costs nothing (a free occasion, a 100 % code, a
 * member's included Chorus) is settled without a payment: the Chorus is marked paid, a zero
 * invoice and the code's redemption are recorded. Exactly once: the cart row is locked, so a
 * second call at the same moment waits and then finds it settled.
 */
export async function finalizeFreeCart(cartId: string) {
  const outcome = await db().transaction(async (tx) => {
    const cart = await lockCart(tx, cartId);
    if (!cart) throw cartNotFound();
    if (cart.status === "paid") return { cart, invoice: await findInvoiceOfCart(tx, cart.id), alreadyFinalized: true };
    const state = await loadCartState(cart, tx, { lockPromo: true });
    refuseUnsellable(state);
    if (state.promoRefused && state.promoProblem) {
      throw new ApiError(409, "PROMO_CODE_INVALID", state.promoProblem, { promoCode: state.promoProblem });
    }
    if (state.pricing.totals.total !== 0) {
      throw new ApiError(
        402,
        "PAYMENT_REQUIRED",
        `This cart comes to ${formatMoney(state.pricing.totals.total, state.pricing.totals.currency)}: it needs a payment, not a free checkout.`,
      );
    }
    const sale = await recordSale(tx, { state, payment: null, paidAt: new Date() });
    return { cart: sale.cart, invoice: sale.invoice, alreadyFinalized: false };
  });
  return { ...outcome, view: await cartViewOf(outcome.cart) };
}

/**
 * A cart that cannot be settled as it stands: a later purchase with nothing chosen (it would be an
 * empty invoice), or one for a Chorus no longer paid for (its payment was refunded in full since).
 */
export function refuseUnsellable(state: Pick<CartState, "laterPurchase" | "pricing" | "event">) {
  if (!state.laterPurchase) return;
  if (!state.event.paid) throw new ApiError(409, "CART_CHANGED", "This Chorus is not paid for any more: open its cart again.");
  if (!state.pricing.lineItems.length) throw new ApiError(409, "CART_EMPTY", "Choose something to add to your Chorus first.");
}
