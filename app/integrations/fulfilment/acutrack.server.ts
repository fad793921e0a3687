import { z } from "zod";
import type { FulfilmentProvider, FulfilmentStatus } from "./fulfilment-port";
import { optionalDay, optionalText, restFulfilmentProvider, type RestServiceSettings } from "./rest-provider.server";

// DVDs through an Acutrack-like disc service's REST API, over plain HTTP (it has no SDK):
// `POST /orders` with the disc's video and label art and the address, keyed by our reference
// (a repeated reference answers the first order), and `GET /orders/{id}` for its progress, its
// estimated delivery day and, once shipped, the carrier's tracking number and page.

export type AcutrackSettings = RestServiceSettings;

const STATUS = {
  received: "received",
  in_production: "received",
  printed: "printed",
  packed: "printed",
  shipped: "shipped",
  delivered: "shipped",
  cancelled: "failed",
  rejected: "failed",
} as const satisfies Record<string, FulfilmentStatus>;

/** `{ order: … }`, as both calls answer it. */
const answer = z
  .object({
    order: z.object({
      id: z.string().min(1),
      status: z.enum(Object.keys(STATUS) as (keyof typeof STATUS)[]),
      reference: optionalText,
      tracking: z.object({ number: optionalText, url: optionalText }).catch({ number: null, url: null }),
      estimated_delivery_date: optionalDay,
    }),
  })
  .transform(({ order }) => ({
    id: order.id,
    externalId: order.reference ?? "",
    status: STATUS[order.status],
    trackingNumber: order.tracking.number,
    trackingUrl: order.tracking.url,
    expectedDelivery: order.estimated_delivery_date,
  }));

export const acutrackProvider = (settings: AcutrackSettings): FulfilmentProvider =>
  restFulfilmentProvider(settings, {
    name: "acutrack",
    service: "disc service",
    noun: "an order",
    ordersPath: "/orders",
    headers: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
    placingHeaders: (input) => ({ "idempotency-key": input.externalId }),
    body: (input) => ({
      reference: input.externalId,
      product: "dvd",
      quantity: input.quantity,
      title: input.title,
      files: { video_url: input.videoUrl, label_url: input.artUrl },
      ship_to: {
        name: input.address.name,
        address1: input.address.line1,
        address2: input.address.line2,
        city: input.address.city,
        state: input.address.region,
        postal_code: input.address.postalCode,
        country: input.address.country,
      },
    }),
    answer,
  });
