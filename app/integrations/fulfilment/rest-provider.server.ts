import { z } from "zod";
import { isCalendarDay } from "~/domain/delivery-estimate";
import type { FulfilmentOrder, FulfilmentOrderInput, FulfilmentProvider } from "./fulfilment-port";
import { FulfilmentServiceError } from "./fulfilment-port";
import { callService } from "./http-call.server";

// A fulfilment service with a REST API of two calls (POST a new order, GET one by its id), each
// answering the order as JSON: the disc service and the book printer differ only in their words.

export interface RestServiceSettings {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
}

interface RestService {
  name: string;
  /** The service's name for messages ("The disc service …"). */
  service: string;
  /** Where orders are posted; `${ordersPath}/{id}` reads one. */
  ordersPath: string;
  /** The headers that carry the key. */
  headers: (apiKey: string) => Record<string, string>;
  /** Headers of the placing call besides (an idempotency key). */
  placingHeaders?: (input: FulfilmentOrderInput) => Record<string, string>;
  /** The body of the placing call. */
  body: (input: FulfilmentOrderInput) => unknown;
  /** The service's answer, read into an order; a failed parse is an order we cannot read. */
  answer: z.ZodType<FulfilmentOrder>;
  /** What the service calls an order, for messages ("… sent a book we cannot read"). */
  noun: string;
}

/** Text the service may leave out, send empty or send as something else: then it is none. */
export const optionalText = z.string().min(1).nullable().catch(null);
/** A day the service wrote YYYY-MM-DD (or an ISO moment, whose day is taken); anything else is no day. */
export const optionalDay = optionalText.transform((value) => {
  const day = value?.slice(0, 10);
  return day && isCalendarDay(day) ? day : null;
});

export function restFulfilmentProvider(settings: RestServiceSettings, rest: RestService): FulfilmentProvider {
  const base = settings.baseUrl.replace(/\/+$/, "");
  const headers = rest.headers(settings.apiKey);
  const call = { timeoutMs: settings.timeoutMs, service: rest.service };

  const asOrder = (answer: Record<string, unknown>): FulfilmentOrder => {
    const parsed = rest.answer.safeParse(answer);
    if (!parsed.success) throw new FulfilmentServiceError(`The ${rest.service} sent ${rest.noun} we cannot read.`, true);
    return parsed.data;
  };

  return {
    name: rest.name,
    async createOrder(input) {
      const answer = await callService({
        ...call,
        method: "POST",
        url: `${base}${rest.ordersPath}`,
        headers: { ...headers, ...rest.placingHeaders?.(input) },
        body: rest.body(input),
      });
      return asOrder(answer!);
    },
    async getOrder(id) {
      const answer = await callService({ ...call, method: "GET", url: `${base}${rest.ordersPath}/${encodeURIComponent(id)}`, headers });
      return answer ? asOrder(answer) : null;
    },
  };
}
