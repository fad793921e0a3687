import type { MailOrderKind } from "~/domain/commerce/mail-orders";
import { formatDeliveryDay } from "~/domain/delivery-estimate";
import { db } from "~/lib/db.server";
import { findLocalFulfilmentOrder } from "~/models/local-fulfilment-order.server";
import { listCountries } from "~/services/commerce/countries.server";
import { fulfilmentProvider, localFulfilmentActive } from "./provider.server";

// The local fulfilment services' tracking page (docs/decisions/052-delivery-dates-and-tracking.md):
// what a vendor's order page or a carrier's tracking page says of a parcel, where it is and when it
// should arrive. Anyone with its link may read it, as with a carrier's: it names the town and the
// country it goes to, never the street or the person.

const SERVICE: Readonly<Record<MailOrderKind, string>> = { dvd: "Local disc service", keepsake: "Local book printer" };

const WHERE = {
  received: "At the printer, being made.",
  printed: "Made and packed, waiting for the post.",
  shipped: "In the post.",
  failed: "It could not be made, so nothing was posted.",
} as const;

/** A local order's tracking, by its id at the service; null when there is none (or the vendor's key is set). */
export async function localParcelView(id: string | undefined) {
  if (!id) return null;
  for (const kind of ["dvd", "keepsake"] as const) {
    if (!localFulfilmentActive(kind)) continue;
    const row = await findLocalFulfilmentOrder(db(), kind, id);
    const order = row ? await fulfilmentProvider(kind).getOrder(row.id) : null;
    if (!row || !order) continue;
    const country = listCountries().find((c) => c.code === row.address.country)?.name ?? row.address.country;
    return {
      id: row.id,
      service: SERVICE[kind],
      copies: row.quantity,
      status: order.status,
      where: WHERE[order.status],
      trackingNumber: order.trackingNumber,
      expectedBy: order.expectedDelivery ? formatDeliveryDay(order.expectedDelivery) : null,
      goingTo: `${row.address.city}, ${country}`,
    };
  }
  return null;
}
