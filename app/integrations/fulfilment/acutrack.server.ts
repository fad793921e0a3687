import type { FulfilmentOrder, FulfilmentProvider, FulfilmentStatus } from "./fulfilment-port";
import { FulfilmentServiceError } from "./fulfilment-port";
import { callService, dayOf, recordOf, textOf } from "./http-call.server";

// DVDs through an Acutrack-like disc service's REST API, over plain HTTP (it has no SDK):
// `POST /orders` with the disc's video and label art and the address, keyed by our reference
// (a repeated reference answers the first order), and `GET /orders/{id}` for its progress, its
// estimated delivery day and, once shipped, the carrier's tracking number and page.

export interface AcutrackSettings {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
}

const STATUS: Readonly<Record<string, FulfilmentStatus>> = {
  received: "received",
  in_production: "received",
  printed: "printed",
  packed: "printed",
  shipped: "shipped",
  delivered: "shipped",
  cancelled: "failed",
  rejected: "failed",
};

export function acutrackProvider(settings: AcutrackSettings): FulfilmentProvider {
  const base = settings.baseUrl.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${settings.apiKey}` };
  const service = "disc service";

  const asOrder = (answer: Record<string, unknown>): FulfilmentOrder => {
    const order = recordOf(answer.order);
    const id = textOf(order.id);
    const status = STATUS[textOf(order.status) ?? ""];
    if (!id || !status) throw new FulfilmentServiceError(`The ${service} sent an order we cannot read.`, true);
    const tracking = recordOf(order.tracking);
    return {
      id,
      externalId: textOf(order.reference) ?? "",
      status,
      trackingNumber: textOf(tracking.number),
      trackingUrl: textOf(tracking.url),
      expectedDelivery: dayOf(order.estimated_delivery_date),
    };
  };

  return {
    name: "acutrack",
    async createOrder(input) {
      const { address } = input;
      const answer = await callService({
        method: "POST",
        url: `${base}/orders`,
        headers: { ...headers, "idempotency-key": input.externalId },
        timeoutMs: settings.timeoutMs,
        service,
        body: {
          reference: input.externalId,
          product: "dvd",
          quantity: input.quantity,
          title: input.title,
          files: { video_url: input.videoUrl, label_url: input.artUrl },
          ship_to: {
            name: address.name,
            address1: address.line1,
            address2: address.line2,
            city: address.city,
            state: address.region,
            postal_code: address.postalCode,
            country: address.country,
          },
        },
      });
      return asOrder(answer!);
    },
    async getOrder(id) {
      const answer = await callService({
        method: "GET",
        url: `${base}/orders/${encodeURIComponent(id)}`,
        headers,
        timeoutMs: settings.timeoutMs,
        service,
      });
      return answer ? asOrder(answer) : null;
    },
  };
}
