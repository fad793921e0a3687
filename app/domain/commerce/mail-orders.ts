import { z } from "zod";
import { postalAddressInput, type PostalAddress } from "~/domain/postal-address";
import { productByKey, type Product } from "./catalogue";

// What Chorus posts and where (docs/decisions/029-dvds-and-keepsakes-by-post.md): a DVD of the
// published video, or a printed photo book of its stills, in 1 to 10 copies, to the countries the
// fulfilment services deliver to. Postage is by zone: the first copy, then each further one.

export type MailOrderKind = "dvd" | "keepsake";

/** Each kind's catalogue product. */
export const PRODUCT_OF: Readonly<Record<MailOrderKind, string>> = { dvd: "dvd", keepsake: "photo-book" };

export const mailProduct = (kind: MailOrderKind): Product => productByKey(PRODUCT_OF[kind])!;

export const MAX_COPIES = 10;

interface Zone {
  readonly name: string;
  /** Minor units (the catalogue's currency): the first copy, and each one after it. */
  readonly first: number;
  readonly more: number;
}

const ZONES = {
  domestic: { name: "United States", first: 499, more: 100 },
  near: { name: "Canada and Mexico", first: 999, more: 200 },
  world: { name: "Europe, Australia and New Zealand", first: 1499, more: 300 },
} as const satisfies Record<string, Zone>;

/** Postage zones in the order the order page lists them. */
export const POSTAGE_ZONES: readonly Zone[] = Object.values(ZONES);

/** The countries both services post to, with their postage zone. */
const ZONE_OF: Readonly<Record<string, keyof typeof ZONES>> = {
  US: "domestic",
  CA: "near",
  MX: "near",
  ...Object.fromEntries(
    ["GB", "IE", "FR", "DE", "ES", "IT", "NL", "BE", "AT", "DK", "SE", "NO", "FI", "PT", "CH", "AU", "NZ"].map((c) => [
      c,
      "world" as const,
    ]),
  ),
};

export const POST_COUNTRIES: ReadonlySet<string> = new Set(Object.keys(ZONE_OF));

/** Postage for `quantity` copies to `country` (one of POST_COUNTRIES). */
export function postageFor(country: string, quantity: number): number {
  const zone = ZONES[ZONE_OF[country] ?? "world"];
  return zone.first + zone.more * (quantity - 1);
}

export interface MailOrderPrice {
  unitAmount: number;
  shippingAmount: number;
  totalAmount: number;
  currency: string;
}

export function priceOf(kind: MailOrderKind, quantity: number, country: string): MailOrderPrice {
  const product = mailProduct(kind);
  const shippingAmount = postageFor(country, quantity);
  return {
    unitAmount: product.unitAmount,
    shippingAmount,
    totalAmount: product.unitAmount * quantity + shippingAmount,
    currency: product.currency,
  };
}

/** How many copies, and where to: the address by the shared postal rules, to a country we post to. */
export const mailOrderInput = z
  .object({
    quantity: z.coerce
      .number({ error: `Choose 1 to ${MAX_COPIES} copies.` })
      .int(`Choose 1 to ${MAX_COPIES} copies.`)
      .min(1, `Choose 1 to ${MAX_COPIES} copies.`)
      .max(MAX_COPIES, `Choose 1 to ${MAX_COPIES} copies.`),
  })
  .and(postalAddressInput(POST_COUNTRIES));

/** The address part of a parsed order. */
export const addressOf = ({ name, line1, line2, city, region, postalCode, country }: PostalAddress): PostalAddress => ({
  name,
  line1,
  line2,
  city,
  region,
  postalCode,
  country,
});

/** Where an order stands, in words for the organiser. */
export const MAIL_ORDER_STATUS_TEXT = {
  awaiting_payment: "Waiting for payment",
  paid: "Paid, being sent to the printer",
  received: "Received by the printer",
  printed: "Printed, about to be posted",
  shipped: "Posted",
  failed: "Could not be made",
  refunded: "Refunded",
  abandoned: "Not paid: the payment page expired, so nothing was charged",
} as const;
