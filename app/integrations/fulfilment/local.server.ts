import type { PostalAddress } from "~/domain/postal-address";
import type { FulfilmentOrder, FulfilmentOrderInput, FulfilmentProvider } from "./fulfilment-port";

export interface LocalFulfilmentOrderRow {
  id: string;
  externalId: string;
  createdAt: Date;
}

/** Where the local service keeps its orders (PostgreSQL, so every process sees them and they survive restarts). */
export interface LocalFulfilmentStore {
  /** Inserts the order, or returns the one already made with this external id. */
  insertOnce(order: { id: string; externalId: string; quantity: number; address: PostalAddress }): Promise<LocalFulfilmentOrderRow>;
  find(id: string): Promise<LocalFulfilmentOrderRow | null>;
}

export interface LocalFulfilmentSettings {
  name: string;
  store: LocalFulfilmentStore;
  /** How long an order stays at each step (received, then printed) before the next, as a real service's would. */
  stepMs: number;
  newId: () => string;
  now?: () => Date;
}

/**
 * A fulfilment service inside the app, for machines with no vendor key: every order is taken, then
 * printed after one step and shipped with a tracking number after two.
 */
export function localFulfilmentProvider(settings: LocalFulfilmentSettings): FulfilmentProvider {
  const now = settings.now ?? (() => new Date());
  const asOrder = (row: LocalFulfilmentOrderRow): FulfilmentOrder => {
    const steps = settings.stepMs > 0 ? Math.floor((now().getTime() - row.createdAt.getTime()) / settings.stepMs) : 2;
    const shipped = steps >= 2;
    return {
      id: row.id,
      externalId: row.externalId,
      status: shipped ? "shipped" : steps >= 1 ? "printed" : "received",
      trackingNumber: shipped
        ? `LOCAL${row.id
            .replace(/[^A-Za-z0-9]/g, "")
            .slice(-12)
            .toUpperCase()}`
        : null,
      trackingUrl: null,
    };
  };
  return {
    name: settings.name,
    async createOrder(input: FulfilmentOrderInput) {
      return asOrder(
        await settings.store.insertOnce({
          id: settings.newId(),
          externalId: input.externalId,
          quantity: input.quantity,
          address: input.address,
        }),
      );
    },
    async getOrder(id) {
      const row = await settings.store.find(id);
      return row ? asOrder(row) : null;
    },
  };
}
