import { z } from "zod";
import { parseWith } from "~/lib/http.server";
import { isCountryCode } from "./countries.server";

// What the browser may send to change a cart: products by key, a promo code and a billing
// country. Never an amount, and never the cart's own fields.

/** What the browser may change (spec §3: the cart's own fields are omitted on update and ignored here). */
export const cartUpdateInput = z.object({
  /** Upsells and add-ons by key; the Chorus itself is always in the cart. */
  selected: z.array(z.string().trim().max(64)).max(20).optional(),
  promoCode: z.string().trim().max(64).nullable().optional(),
  billingCountry: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .refine((v) => v === "" || isCountryCode(v), "Choose a country from the list.")
    .nullable()
    .optional(),
});

export type CartUpdate = z.infer<typeof cartUpdateInput>;

const SPEC_CART_FIELDS = [
  "id",
  "createdAt",
  "updatedAt",
  "eventId",
  "userId",
  "products",
  "checkoutSessionId",
  "canUsePromoCode",
  "lineItems",
  "promotion",
  "taxation",
  "totals",
  "upsells",
  "availableAddons",
];

/** The payload of PUT /v2/carts/{id} without the fields the spec leaves out of an update, then checked. */
export function parseCartUpdate(payload: Record<string, unknown>): CartUpdate {
  const kept = Object.fromEntries(Object.entries(payload).filter(([key]) => !SPEC_CART_FIELDS.includes(key)));
  return parseWith(cartUpdateInput.strip(), kept);
}
