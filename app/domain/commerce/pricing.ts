import { BASE_PRODUCT_KEY, productByKey, PRODUCTS, type Product } from "./catalogue";
import { CURRENCY } from "./money";
import { coversAnyLine, describeDiscount, discountLines, type PromoRule } from "./promo-codes";
import { formatRate, taxOn, taxRateFor } from "./tax";

// A cart's prices: its lines, the promo code's discount, tax and totals, worked out on every read
// from the catalogue and the cart's choices. Nothing here comes from the browser but product keys,
// a promo code and a billing country.

export interface CartProduct {
  key: string;
  quantity: number;
}

/** Why something costs nothing: a free occasion's Chorus, or what a VIP membership includes. */
export type Inclusion = "free-occasion" | "membership";

/** What comes with the event before anything is paid. */
export interface PricingContext {
  /** The occasion is free (Get Well): its Chorus costs nothing. */
  freeOccasion: boolean;
  /** The organiser is a member: their Chorus and its premium finish are included. */
  member: boolean;
  /**
   * A cart for what is bought after the Chorus was paid for (docs/decisions/018): it holds only
   * upsells and add-ons, never the Chorus again.
   */
  laterPurchase?: boolean;
}

/** What a membership includes on every Chorus. */
const MEMBER_INCLUDES: ReadonlySet<string> = new Set([BASE_PRODUCT_KEY, "premium"]);

export function inclusionOf(key: string, context: PricingContext): Inclusion | null {
  if (context.member && MEMBER_INCLUDES.has(key)) return "membership";
  if (context.freeOccasion && key === BASE_PRODUCT_KEY) return "free-occasion";
  return null;
}

export const INCLUSION_LABEL: Record<Inclusion, string> = {
  "free-occasion": "Free for this occasion",
  membership: "Included with your VIP membership",
};

export interface LineItem {
  key: string;
  kind: Product["kind"];
  name: string;
  gives: readonly string[];
  /** The catalogue price of one. */
  unitAmount: number;
  quantity: number;
  /** What the line costs before a promo code: unitAmount × quantity, or 0 when included. */
  amount: number;
  included: Inclusion | null;
  discount: number;
  /** amount − discount. */
  net: number;
  currency: string;
}

export interface Promotion {
  code: string;
  description: string;
  discount: number;
}

export interface Taxation {
  country: string | null;
  label: string;
  basisPoints: number;
  rate: string;
  /** Tax is charged on this: the subtotal after the discount. */
  taxable: number;
  amount: number;
}

export interface Totals {
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
  currency: string;
}

export interface Pricing {
  lineItems: LineItem[];
  promotion: Promotion | null;
  taxation: Taxation;
  totals: Totals;
}

const catalogueOrder = (key: string) => PRODUCTS.findIndex((p) => p.key === key);

/**
 * Lines in catalogue order, the Chorus itself always first (but in a later purchase); unknown keys
 * (a product withdrawn from the catalogue) are left out.
 */
export function lineItemsOf(products: readonly CartProduct[], context: PricingContext): Omit<LineItem, "discount" | "net">[] {
  const chosen = products
    .filter((p) => p.key !== BASE_PRODUCT_KEY && p.quantity > 0)
    .sort((a, b) => catalogueOrder(a.key) - catalogueOrder(b.key));
  const keys = context.laterPurchase ? chosen : [{ key: BASE_PRODUCT_KEY, quantity: 1 }, ...chosen];
  return keys.flatMap(({ key, quantity }) => {
    const product = productByKey(key);
    if (!product || product.kind === "membership") return [];
    const included = inclusionOf(key, context);
    return [
      {
        key,
        kind: product.kind,
        name: product.name,
        gives: product.gives,
        unitAmount: product.unitAmount,
        quantity,
        amount: included ? 0 : product.unitAmount * quantity,
        included,
        currency: product.currency,
      },
    ];
  });
}

/**
 * Prices a cart. `promo` is a code already judged usable by this buyer (promoApplicability); it
 * discounts only the lines it covers, and a code that covers none gives no promotion.
 */
export function priceCart(
  products: readonly CartProduct[],
  context: PricingContext,
  promo: Pick<PromoRule, "code" | "kind" | "value" | "productKeys" | "currency"> | null,
  country: string | null,
): Pricing {
  const lines = lineItemsOf(products, context);
  const applies = promo && coversAnyLine(promo, lines);
  const discounts = applies ? discountLines(promo, lines) : lines.map(() => 0);
  const lineItems = lines.map((line, i) => ({ ...line, discount: discounts[i]!, net: line.amount - discounts[i]! }));
  const subtotal = lineItems.reduce((sum, l) => sum + l.amount, 0);
  const discount = lineItems.reduce((sum, l) => sum + l.discount, 0);
  const taxable = subtotal - discount;
  const rate = taxRateFor(country);
  const tax = taxOn(taxable, rate);
  return {
    lineItems,
    promotion: applies ? { code: promo.code, description: describeDiscount(promo), discount } : null,
    taxation: {
      country: country ? rate.country : null,
      label: rate.label,
      basisPoints: rate.basisPoints,
      rate: formatRate(rate),
      taxable,
      amount: tax,
    },
    totals: { subtotal, discount, tax, total: taxable + tax, currency: lineItems[0]?.currency ?? CURRENCY },
  };
}

/** Whether a promo code field makes sense: there is something left to pay for. */
export const canUsePromoCode = (pricing: Pick<Pricing, "totals">) => pricing.totals.subtotal > 0;
