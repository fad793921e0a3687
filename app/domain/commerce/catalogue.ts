import { CURRENCY } from "./money";

// What Chorus sells, as our own data: the payment service is only ever told what is here (with the
// amounts a cart works out), never the other way round. Prices are integer minor units.

export type ProductKind = "base" | "upsell" | "addon" | "membership" | "post";

export interface Product {
  readonly key: string;
  readonly kind: ProductKind;
  readonly name: string;
  /** What the buyer gets, one short line each: shown next to the price. */
  readonly gives: readonly string[];
  readonly unitAmount: number;
  readonly currency: string;
  /** Memberships renew every month or year. */
  readonly interval?: "month" | "year";
}

/** The Chorus itself: what every paid occasion needs before it can go to the recipient (spec §1, §9: 5.00 USD). */
export const BASE_PRODUCT_KEY = "chorus";

const PRODUCT_LIST = [
  {
    key: BASE_PRODUCT_KEY,
    kind: "base",
    name: "Your Chorus",
    gives: ["Deliver it to the recipient", "Full-quality download", "Keep it forever"],
    unitAmount: 500,
    currency: CURRENCY,
  },
  {
    key: "premium",
    kind: "upsell",
    name: "Premium finish",
    gives: ["Download in 1080p HD", "Every premium theme and track"],
    unitAmount: 400,
    currency: CURRENCY,
  },
  {
    key: "originals-zip",
    kind: "addon",
    name: "Every original",
    gives: ["A zip of every photo and clip as it was sent, at full size"],
    unitAmount: 300,
    currency: CURRENCY,
  },
  {
    key: "guestbook-book",
    kind: "addon",
    name: "Guestbook keepsake",
    gives: ["Every guestbook message as a printable PDF"],
    unitAmount: 200,
    currency: CURRENCY,
  },
  {
    key: "vip-monthly",
    kind: "membership",
    name: "VIP membership, monthly",
    gives: ["Every Chorus included", "Premium finish on every Chorus", "Cancel any time"],
    unitAmount: 999,
    currency: CURRENCY,
    interval: "month",
  },
  {
    key: "vip-yearly",
    kind: "membership",
    name: "VIP membership, yearly",
    gives: ["Every Chorus included", "Premium finish on every Chorus", "Two months free"],
    unitAmount: 9990,
    currency: CURRENCY,
    interval: "year",
  },
  // Made and posted by a fulfilment service, per copy, plus postage (docs/decisions/029).
  {
    key: "dvd",
    kind: "post",
    name: "DVD of the video",
    gives: ["The published video on a DVD that plays in any player", "A printed disc label and case cover"],
    unitAmount: 1900,
    currency: CURRENCY,
  },
  {
    key: "photo-book",
    kind: "post",
    name: "Printed photo book",
    gives: ["20 stills from the video, printed in a hardback book", "The title and the recipient's name on the cover"],
    unitAmount: 3900,
    currency: CURRENCY,
  },
] as const satisfies readonly Product[];

export const PRODUCTS: readonly Product[] = PRODUCT_LIST;

export const productByKey = (key: string): Product | undefined => PRODUCTS.find((p) => p.key === key);

/** What can go in an event's cart besides the Chorus itself. */
export interface EventFacts {
  /** A guestbook Chorus collects messages: only it has a guestbook keepsake to offer. */
  guestbook: boolean;
}

/** Upsells of the Chorus itself (a better tier of the same thing). */
export const upsellsFor = (): Product[] => PRODUCTS.filter((p) => p.kind === "upsell");

/** Add-ons that apply to this event. */
export const addonsFor = (event: EventFacts): Product[] =>
  PRODUCTS.filter((p) => p.kind === "addon" && (p.key !== "guestbook-book" || event.guestbook));

/** Keys a buyer may choose for this event's cart (the Chorus itself is always in it). */
export const choosableKeys = (event: EventFacts) => new Set([...upsellsFor(), ...addonsFor(event)].map((p) => p.key));

/**
 * A cart without the Chorus in it is a later purchase: what the organiser buys once the Chorus is
 * paid for (every first cart holds the Chorus from the moment it is made).
 */
export const isLaterPurchase = (products: readonly { key: string }[]) => !products.some((p) => p.key === BASE_PRODUCT_KEY);

/** What this event could still buy: its upsells and add-ons that it does not have yet. */
export const productsLeftFor = (event: EventFacts, has: (key: string) => boolean): Product[] =>
  [...upsellsFor(), ...addonsFor(event)].filter((p) => !has(p.key));

export const membershipPlans = (): Product[] => PRODUCTS.filter((p) => p.kind === "membership");

/**
 * One tree planted in the recipient's honour (spec §7.2 "Contributions"), and how many one payment
 * may plant (docs/decisions/028-trees-and-the-live-pot.md).
 */
export const TREE_PRICE = { unitAmount: 250, currency: CURRENCY } as const;
export const TREE_QUANTITY = { min: 1, max: 100 } as const;
