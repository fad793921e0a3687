import type { MailOrderKind } from "~/domain/commerce/mail-orders";
import { parcelDeliveryDay } from "~/domain/delivery-estimate";
import type { PostalAddress } from "~/domain/postal-address";
import type { FulfilmentOrder, FulfilmentOrderInput, FulfilmentProvider, FulfilmentStatus } from "./fulfilment-port";

export interface LocalFulfilmentOrderRow {
  id: string;
  externalId: string;
  address: PostalAddress;
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
  /** What it makes: a DVD takes fewer days to make than a photo book. */
  kind: MailOrderKind;
  appUrl: string;
  store: LocalFulfilmentStore;
  /** How long an order stays at each step (received, then printed) before the next, as a real service's would. */
  stepMs: number;
  newId: () => string;
  now?: () => Date;
}

/** Where a local order says how far it got: the service's own page, as a vendor's order page or a carrier's tracking page would. */
const localParcelPath = (id: string) => `/local-parcels/${encodeURIComponent(id)}`;

/** The step a local order has reached `elapsedMs` after it was taken. */
function localParcelStatus(elapsedMs: number, stepMs: number): Exclude<FulfilmentStatus, "failed"> {
  const steps = stepMs > 0 ? Math.floor(elapsedMs / stepMs) : 2;
  return steps >= 2 ? "shipped" : steps >= 1 ? "printed" : "received";
}

/** The tracking number the local service gives a parcel it has posted. */
const localTrackingNumber = (id: string) =>
  `LOCAL${id
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(-12)
    .toUpperCase()}`;

/**
 * A fulfilment service inside the app, for machines with no vendor key: every order is taken, then
 * printed after one step and shipped with a tracking number after two. Its expected delivery is the
 * one a real service would give (business days from when it took the order, by what it makes and
 * where it goes), not the end of those quick steps; its page at /local-parcels/{id} says where it is.
 */
export function localFulfilmentProvider(settings: LocalFulfilmentSettings): FulfilmentProvider {
  const now = settings.now ?? (() => new Date());
  const asOrder = (row: LocalFulfilmentOrderRow): FulfilmentOrder => {
    const status = localParcelStatus(now().getTime() - row.createdAt.getTime(), settings.stepMs);
    return {
      id: row.id,
      externalId: row.externalId,
      status,
      trackingNumber: status === "shipped" ? localTrackingNumber(row.id) : null,
      trackingUrl: new URL(localParcelPath(row.id), settings.appUrl).toString(),
      expectedDelivery: parcelDeliveryDay(row.createdAt, settings.kind, row.address.country),
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
