import { GiftCardServiceError, type GiftCardOrder, type GiftCardOrderInput, type GiftCardProvider } from "./gift-cards-port";
import { localBrand, localBrandsFor } from "./local-catalogue";

export interface LocalGiftCardOrderRow {
  id: string;
  externalId: string;
  createdAt: Date;
}

/** Where the local vendor keeps its orders (PostgreSQL, so every process sees them and they survive restarts). */
export interface LocalGiftCardOrderStore {
  /** Inserts the order, or returns the one already made with this external id. */
  insertOnce(order: { id: string; externalId: string; input: GiftCardOrderInput }): Promise<LocalGiftCardOrderRow>;
  find(id: string): Promise<LocalGiftCardOrderRow | null>;
}

export interface LocalGiftCardSettings {
  appUrl: string;
  store: LocalGiftCardOrderStore;
  /** How long an order stays "received" before it is delivered, as a vendor's would. */
  deliverAfterMs: number;
  newId: () => string;
  now?: () => Date;
}

/**
 * A gift-card vendor inside the app, for machines with no Tremendous key: the local catalogue, and
 * orders that are received, then delivered after a moment with a claim page at /local-gift-cards/{id}.
 */
export function localGiftCardProvider(settings: LocalGiftCardSettings): GiftCardProvider {
  const now = settings.now ?? (() => new Date());
  const asOrder = (row: LocalGiftCardOrderRow): GiftCardOrder => {
    const delivered = now().getTime() - row.createdAt.getTime() >= settings.deliverAfterMs;
    return {
      id: row.id,
      externalId: row.externalId,
      status: delivered ? "delivered" : "received",
      claimUrl: delivered ? new URL(`/local-gift-cards/${row.id}`, settings.appUrl).toString() : null,
    };
  };

  return {
    name: "local",
    listProducts: async (country) => localBrandsFor(country),
    getProduct: async (id) => localBrand(id),
    async createOrder(input) {
      const product = localBrand(input.productId);
      if (!product || product.currency !== input.currency) {
        throw new GiftCardServiceError("The gift-card service has no such card.", false);
      }
      if (input.amount < product.minAmount || input.amount > product.maxAmount) {
        throw new GiftCardServiceError("The gift-card service does not sell a card of that amount.", false);
      }
      return asOrder(await settings.store.insertOnce({ id: settings.newId(), externalId: input.externalId, input }));
    },
    async getOrder(id) {
      const row = await settings.store.find(id);
      return row ? asOrder(row) : null;
    },
  };
}
