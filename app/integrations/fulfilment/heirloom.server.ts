import { z } from "zod";
import type { FulfilmentProvider, FulfilmentStatus } from "./fulfilment-port";
import { optionalDay, optionalText, restFulfilmentProvider, type RestServiceSettings } from "./rest-provider.server";

// Photo books through an Heirloom-like printer's REST API, over plain HTTP (it has no SDK):
// `POST /v1/books` with the video (the printer takes the book's stills from it), the cover art and
// the address, keyed by our external id (a repeated one answers the first book), and
// `GET /v1/books/{id}` for its progress, its estimated delivery day and, once dispatched, the
// carrier's tracking code and page.

export type HeirloomSettings = RestServiceSettings;

const STATE = {
  queued: "received",
  in_production: "received",
  printed: "printed",
  dispatched: "shipped",
  error: "failed",
  cancelled: "failed",
} as const satisfies Record<string, FulfilmentStatus>;

/** The book itself, as both calls answer it. */
const answer = z
  .object({
    id: z.string().min(1),
    state: z.enum(Object.keys(STATE) as (keyof typeof STATE)[]),
    external_id: optionalText,
    shipment: z.object({ tracking_code: optionalText, tracking_url: optionalText }).catch({ tracking_code: null, tracking_url: null }),
    estimated_delivery: optionalDay,
  })
  .transform((book) => ({
    id: book.id,
    externalId: book.external_id ?? "",
    status: STATE[book.state],
    trackingNumber: book.shipment.tracking_code,
    trackingUrl: book.shipment.tracking_url,
    expectedDelivery: book.estimated_delivery,
  }));

export const heirloomProvider = (settings: HeirloomSettings): FulfilmentProvider =>
  restFulfilmentProvider(settings, {
    name: "heirloom",
    service: "book printer",
    noun: "a book",
    ordersPath: "/v1/books",
    headers: (apiKey) => ({ "x-api-key": apiKey }),
    body: (input) => ({
      external_id: input.externalId,
      format: "hardback-photo-book",
      copies: input.quantity,
      title: input.title,
      video_url: input.videoUrl,
      cover_url: input.artUrl,
      recipient: {
        name: input.address.name,
        street1: input.address.line1,
        street2: input.address.line2,
        city: input.address.city,
        region: input.address.region,
        postcode: input.address.postalCode,
        country_code: input.address.country,
      },
    }),
    answer,
  });
