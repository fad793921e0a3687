import { BASE_PRODUCT_KEY } from "./catalogue";
import { formatMoney } from "./money";
import { INCLUSION_LABEL, priceCart, type CartProduct, type Pricing, type PricingContext } from "./pricing";
import type { PromoRule } from "./promo-codes";

// What the cart page shows of a priced cart, every amount in words. The server renders it, and the
// page works it out again in the browser as boxes are ticked and a country chosen, from the same
// catalogue and pricing rules, so the total and the Pay button are right before anything is posted
// (docs/decisions/046). The server still prices the cart again when Pay is pressed.

export interface CartSummary {
  lines: { key: string; name: string; price: string; listPrice: string | null }[];
  promotion: { code: string; description: string; amount: string } | null;
  /** "VAT 20 %", or null when no tax is charged. */
  tax: string | null;
  taxAmount: string;
  subtotal: string;
  total: string;
  /** The total in minor units: what Pay will charge. */
  totalAmount: number;
  free: boolean;
  nothingChosen: boolean;
}

export function summariseCart(pricing: Pricing): CartSummary {
  const money = (amount: number) => formatMoney(amount, pricing.totals.currency);
  return {
    lines: pricing.lineItems.map((l) => ({
      key: l.key,
      name: l.quantity > 1 ? `${l.name} × ${l.quantity}` : l.name,
      price: l.included ? INCLUSION_LABEL[l.included] : money(l.amount),
      listPrice: l.included ? money(l.unitAmount * l.quantity) : null,
    })),
    promotion: pricing.promotion ? { ...pricing.promotion, amount: `−${money(pricing.promotion.discount)}` } : null,
    tax: pricing.taxation.amount ? `${pricing.taxation.label} ${pricing.taxation.rate}` : null,
    taxAmount: money(pricing.taxation.amount),
    subtotal: money(pricing.totals.subtotal),
    total: money(pricing.totals.total),
    totalAmount: pricing.totals.total,
    free: pricing.totals.total === 0,
    nothingChosen: !pricing.lineItems.length,
  };
}

/** What the page needs to price the cart again as it changes: nothing the buyer could not see already. */
export interface LivePricing {
  context: PricingContext;
  /** The cart's code, when it counts now; it is judged again by the server when Pay is pressed. */
  promo: Pick<PromoRule, "code" | "kind" | "value" | "productKeys" | "currency"> | null;
}

/** The cart priced with these upsells and add-ons ticked and this billing country. */
export function summariseChoice(live: LivePricing, ticked: readonly string[], country: string | null): CartSummary {
  const products: CartProduct[] = [
    ...(live.context.laterPurchase ? [] : [{ key: BASE_PRODUCT_KEY, quantity: 1 }]),
    ...ticked.filter((key) => key !== BASE_PRODUCT_KEY).map((key) => ({ key, quantity: 1 })),
  ];
  return summariseCart(priceCart(products, live.context, live.promo, country || null));
}
