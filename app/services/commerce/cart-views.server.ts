import type { Cart, CartProductRow, Event, Invoice, PromoCode, User } from "drizzle/schema";
import { addonsFor, BASE_PRODUCT_KEY, productByKey, upsellsFor, type Product } from "~/domain/commerce/catalogue";
import { formatMoney } from "~/domain/commerce/money";
import { canUsePromoCode, inclusionOf, type Inclusion, type Pricing } from "~/domain/commerce/pricing";
import { describeDiscount } from "~/domain/commerce/promo-codes";
import { formatRate } from "~/domain/commerce/tax";
import { db } from "~/lib/db.server";
import { findOpenCartOfEvent, listCartProducts } from "~/models/cart.server";
import { findInvoiceOfCart } from "~/models/payment.server";
import { findUserById } from "~/models/user.server";
import { loadCartState, pricingContextOf, type CartState } from "./cart-state.server";
import { eventEntitlements } from "./entitlements.server";

// What the API and the cart page show of a cart and of what an event can buy (spec §3 "Cart").

const productOffer = (
  product: Product,
  state: { products: CartProductRow[]; event: Event; organiser: User | null; owned?: (key: string) => boolean },
) => {
  const included = inclusionOf(product.key, pricingContextOf(state.event, state.organiser));
  return {
    key: product.key,
    name: product.name,
    gives: product.gives,
    unitAmount: product.unitAmount,
    currency: product.currency,
    price: formatMoney(product.unitAmount, product.currency),
    included,
    selected: state.products.some((p) => p.key === product.key),
    /** The Chorus has it already (bought, or included): a later cart does not offer it again. A cart offers only what is not. */
    owned: state.owned?.(product.key) ?? false,
  };
};

/** GET /v2/stripe/available-products/{id}: what this Chorus can have, with what each gives and costs. */
export async function availableProductsOf(event: Event) {
  const organiser = await findUserById(db(), event.creatorId);
  const open = await findOpenCartOfEvent(db(), event.id);
  const rights = await eventEntitlements(event);
  const owned = (key: string) => (key === BASE_PRODUCT_KEY ? rights.unlocked : rights.has(key));
  const state = { event, organiser, products: open ? await listCartProducts(db(), open.id) : [], owned };
  return {
    base: productOffer(productByKey(BASE_PRODUCT_KEY)!, state),
    upsells: upsellsFor().map((p) => productOffer(p, state)),
    addons: addonsFor(event).map((p) => productOffer(p, state)),
  };
}

/** The buyer of an event's cart and what a promo code would be priced against. */
export async function promoCartOf(event: Event) {
  const organiser = (await findUserById(db(), event.creatorId))!;
  const open = await findOpenCartOfEvent(db(), event.id);
  const products = open ? await listCartProducts(db(), open.id) : [{ key: BASE_PRODUCT_KEY, quantity: 1 }];
  return {
    buyer: organiser,
    cart: {
      cartId: open?.id ?? null,
      products,
      context: pricingContextOf(event, organiser, products),
      country: open?.billingCountry ?? null,
    },
  };
}

/**
 * What a settled cart was sold for, from its invoice: the lines, discount, tax and the total as it
 * was charged, whatever the catalogue or the organiser's membership say now.
 */
function soldPricing(invoice: Invoice, promoCode: PromoCode | null): Pricing {
  const { currency } = invoice;
  return {
    lineItems: invoice.lines.map((line) => {
      const product = productByKey(line.key);
      return {
        key: line.key,
        kind: product?.kind ?? "addon",
        name: line.name,
        gives: product?.gives ?? [],
        unitAmount: line.unitAmount,
        quantity: line.quantity,
        amount: line.amount,
        included: line.included as Inclusion | null,
        discount: line.discount,
        net: line.net,
        currency,
      };
    }),
    promotion: invoice.promoCode
      ? {
          code: invoice.promoCode,
          description: promoCode?.code === invoice.promoCode ? describeDiscount(promoCode) : "promo code",
          discount: invoice.discount,
        }
      : null,
    taxation: {
      country: invoice.country,
      label: invoice.taxLabel,
      basisPoints: invoice.taxBasisPoints,
      rate: formatRate({ basisPoints: invoice.taxBasisPoints }),
      taxable: invoice.subtotal - invoice.discount,
      amount: invoice.tax,
    },
    totals: { subtotal: invoice.subtotal, discount: invoice.discount, tax: invoice.tax, total: invoice.total, currency },
  };
}

/** The cart as the API and the cart page show it (spec §3 "Cart"); a paid cart as its invoice says it was sold. */
export function cartView(state: CartState, invoice: Invoice | null = null) {
  const { cart } = state;
  const pricing = invoice ? soldPricing(invoice, state.promoCode) : state.pricing;
  return {
    id: cart.id,
    createdAt: cart.createdAt.toISOString(),
    updatedAt: cart.updatedAt.toISOString(),
    eventId: cart.eventId,
    userId: cart.userId,
    status: cart.status,
    version: cart.version,
    products: state.products,
    checkoutSessionId: cart.checkoutSessionId,
    canUsePromoCode: cart.status === "open" && canUsePromoCode(pricing),
    promoCode: state.promoCode?.code ?? null,
    promoCodeProblem: state.promoProblem,
    billingCountry: cart.billingCountry,
    lineItems: pricing.lineItems,
    promotion: pricing.promotion,
    taxation: pricing.taxation,
    totals: pricing.totals,
    upsells: state.offers.filter((p) => p.kind === "upsell").map((p) => productOffer(p, state)),
    availableAddons: state.offers.filter((p) => p.kind === "addon").map((p) => productOffer(p, state)),
    /** Bought after the Chorus was paid for: no Chorus line, only what is added to it. */
    laterPurchase: state.laterPurchase,
    paidAt: cart.paidAt?.toISOString() ?? null,
    invoiceNumber: invoice?.number ?? null,
  };
}

export type CartView = ReturnType<typeof cartView>;

/** The cart's view as it is now. */
export async function cartViewOf(cart: Cart) {
  const state = await loadCartState(cart);
  return cartView(state, cart.status === "paid" ? await findInvoiceOfCart(db(), cart.id) : null);
}
