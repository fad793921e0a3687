import type { FulfilmentOrder, FulfilmentProvider, FulfilmentStatus } from "./fulfilment-port";
import { FulfilmentServiceError } from "./fulfilment-port";
import { callService, dayOf, recordOf, textOf } from "./http-call.server";

// Photo books through an Heirloom-like printer's REST API, over plain HTTP (it has no SDK):
// `POST /v1/books` with the video (the printer takes the book's stills from it), the cover art and
// the address, keyed by our external id (a repeated one answers the first book), and
// `GET /v1/books/{id}` for its progress, its estimated delivery day and, once dispatched, the
// carrier's tracking code and page.

export interface HeirloomSettings {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
}

const STATE: Readonly<Record<string, FulfilmentStatus>> = {
  queued: "received",
  in_production: "received",
  printed: "printed",
  dispatched: "shipped",
  error: "failed",
  cancelled: "failed",
};

export function heirloomProvider(settings: HeirloomSettings): FulfilmentProvider {
  const base = settings.baseUrl.replace(/\/+$/, "");
  const headers = { "x-api-key": settings.apiKey };
  const service = "book printer";

  const asOrder = (book: Record<string, unknown>): FulfilmentOrder => {
    const id = textOf(book.id);
    const status = STATE[textOf(book.state) ?? ""];
    if (!id || !status) throw new FulfilmentServiceError(`The ${service} sent a book we cannot read.`, true);
    const shipment = recordOf(book.shipment);
    return {
      id,
      externalId: textOf(book.external_id) ?? "",
      status,
      trackingNumber: textOf(shipment.tracking_code),
      trackingUrl: textOf(shipment.tracking_url),
      expectedDelivery: dayOf(book.estimated_delivery),
    };
  };

  return {
    name: "heirloom",
    async createOrder(input) {
      const { address } = input;
      const answer = await callService({
        method: "POST",
        url: `${base}/v1/books`,
        headers,
        timeoutMs: settings.timeoutMs,
        service,
        body: {
          external_id: input.externalId,
          format: "hardback-photo-book",
          copies: input.quantity,
          title: input.title,
          video_url: input.videoUrl,
          cover_url: input.artUrl,
          recipient: {
            name: address.name,
            street1: address.line1,
            street2: address.line2,
            city: address.city,
            region: address.region,
            postcode: address.postalCode,
            country_code: address.country,
          },
        },
      });
      return asOrder(answer!);
    },
    async getOrder(id) {
      const answer = await callService({
        method: "GET",
        url: `${base}/v1/books/${encodeURIComponent(id)}`,
        headers,
        timeoutMs: settings.timeoutMs,
        service,
      });
      return answer ? asOrder(answer) : null;
    },
  };
}
