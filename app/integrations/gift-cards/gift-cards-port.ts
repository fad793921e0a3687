// What the app needs from a gift-card vendor: a catalogue of brands per country, and an order that sends
// one card to the recipient. Tremendous through its official SDK in production; with no key, a local
// vendor inside the app with a small catalogue and a claim page (docs/decisions, "group gift cards").
//
// Amounts are integer minor units (cents) with an upper-case ISO currency code, as the vendor's are.

export interface GiftCardProduct {
  id: string;
  name: string;
  description: string;
  /** The currency the card is bought and redeemed in. */
  currency: string;
  /** The smallest and largest card the vendor sells, in minor units. */
  minAmount: number;
  maxAmount: number;
  imageUrl: string | null;
}

export interface GiftCardOrderInput {
  productId: string;
  /** Minor units. */
  amount: number;
  currency: string;
  recipient: { name: string; email: string };
  /** The same key always gives the same order: a retry after a crash or a time-out cannot send two cards. */
  externalId: string;
}

/** received: taken by the vendor, not yet sent; delivered: the recipient can claim it; failed: it never will be. */
export type GiftCardOrderStatus = "received" | "delivered" | "failed";

export interface GiftCardOrder {
  id: string;
  externalId: string | null;
  status: GiftCardOrderStatus;
  /** Where the recipient claims the card, once the vendor has one. */
  claimUrl: string | null;
}

/** The vendor failed or timed out; `retryable` says whether the same call may work later. */
export class GiftCardServiceError extends Error {
  override name = "GiftCardServiceError";
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

// The server entry and the Remix build each hold a copy of this module: recognised by name, not class.
export const isGiftCardServiceError = (error: unknown): error is GiftCardServiceError =>
  error instanceof Error && error.name === "GiftCardServiceError";

export interface GiftCardProvider {
  readonly name: "tremendous" | "local";
  /** Brands a recipient in `country` (ISO 3166-1 alpha-2) can redeem. */
  listProducts(country: string): Promise<GiftCardProduct[]>;
  /** Null when the vendor has no such product. */
  getProduct(id: string): Promise<GiftCardProduct | null>;
  createOrder(input: GiftCardOrderInput): Promise<GiftCardOrder>;
  /** Null when the vendor has no such order. */
  getOrder(id: string): Promise<GiftCardOrder | null>;
}
