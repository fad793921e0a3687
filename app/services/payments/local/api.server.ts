import { z } from "zod";
import { LOCAL_PAYMENTS_PATH } from "~/integrations/payments/local.server";
import { db, type Db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { validateInput } from "~/lib/http.server";
import {
  findIdempotentReply,
  findLocalPaymentObject,
  listLocalPaymentObjects,
  lockIdempotencyKey,
  saveIdempotentReply,
  saveLocalPaymentObject,
  type StoredObject,
} from "~/models/local-payment.server";
import { localPaymentsActive } from "../provider.server";
import { parseBracketedForm } from "./form-body";
import { isLocalSecretKey } from "./keys.server";
import {
  createObject,
  LocalApiError,
  newId,
  noSuch,
  nowSeconds,
  PRIVATE,
  publicView,
  queueDeliveries,
  recordEvents,
  type PendingEvent,
} from "./objects.server";

// The local payment service's API: the part of Stripe's the app uses, at /local-payments/v1/...,
// answering the official SDK as Stripe would (form-encoded requests, JSON answers, Stripe's error
// shape, idempotency keys). It answers only while the local provider is active.

const CHECKOUT_HOURS = 24;

const metadata = z.record(z.string().max(40), z.string().max(500)).optional();
const amount = z.coerce.number().int().min(0).max(99_999_999);

const createCheckoutSession = z
  .object({
    mode: z.enum(["payment", "subscription"]),
    line_items: z
      .array(
        z.object({
          quantity: z.coerce.number().int().min(1).max(999),
          price_data: z.object({
            currency: z.string().regex(/^[a-z]{3}$/),
            unit_amount: amount,
            recurring: z.object({ interval: z.enum(["day", "week", "month", "year"]) }).optional(),
            product_data: z.object({ name: z.string().min(1).max(250), description: z.string().max(500).optional(), metadata }),
          }),
        }),
      )
      .min(1)
      .max(100),
    customer: z.string().max(100).optional(),
    customer_email: z.email().optional(),
    client_reference_id: z.string().max(200).optional(),
    metadata,
    payment_intent_data: z.object({ metadata }).optional(),
    subscription_data: z.object({ metadata }).optional(),
    success_url: z.url(),
    cancel_url: z.url().optional(),
  })
  .refine((input) => !(input.customer && input.customer_email), {
    message: "You may only specify one of these parameters: customer, customer_email.",
    path: ["customer"],
  })
  .refine((input) => input.line_items.every((line) => !!line.price_data.recurring === (input.mode === "subscription")), {
    message: "Subscription mode needs recurring prices, and payment mode prices that do not recur.",
    path: ["line_items"],
  })
  .refine((input) => new Set(input.line_items.map((line) => line.price_data.currency)).size === 1, {
    message: "All line items must share one currency.",
    path: ["line_items"],
  });

const createPortalSession = z.object({ customer: z.string().min(1).max(100), return_url: z.url().optional() });
const createRefund = z.object({
  payment_intent: z.string().max(100).optional(),
  charge: z.string().max(100).optional(),
  amount: amount.optional(),
  metadata,
});
const createCustomer = z.object({ email: z.email().optional(), name: z.string().max(256).optional(), metadata });

function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = validateInput(schema, input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const param = issue.path.map((part, i) => (i === 0 ? String(part) : `[${String(part)}]`)).join("");
  throw new LocalApiError(400, param ? `Invalid ${param}: ${issue.message}` : issue.message, { param: param || undefined });
}

const appUrl = () => env().APP_URL;

async function checkoutSessionCreate(tx: Db, input: z.infer<typeof createCheckoutSession>) {
  if (input.customer && !(await findLocalPaymentObject(tx, input.customer, "customer"))) throw noSuch("customer", input.customer);
  const id = newId("cs");
  const created = nowSeconds();
  const currency = input.line_items[0]!.price_data.currency;
  const lines = input.line_items.map((line) => ({
    id: newId("li"),
    object: "item",
    description: line.price_data.product_data.name,
    quantity: line.quantity,
    currency,
    amount_subtotal: line.price_data.unit_amount * line.quantity,
    amount_total: line.price_data.unit_amount * line.quantity,
    price: {
      id: newId("price"),
      object: "price",
      currency,
      unit_amount: line.price_data.unit_amount,
      recurring: line.price_data.recurring ? { interval: line.price_data.recurring.interval, interval_count: 1 } : null,
      type: line.price_data.recurring ? "recurring" : "one_time",
      product_data: line.price_data.product_data,
    },
  }));
  const total = lines.reduce((sum, line) => sum + line.amount_total, 0);
  return createObject(tx, {
    id,
    object: "checkout.session",
    mode: input.mode,
    status: "open",
    payment_status: "unpaid",
    amount_subtotal: total,
    amount_total: total,
    currency,
    customer: input.customer ?? null,
    customer_email: input.customer_email ?? null,
    customer_details: null,
    client_reference_id: input.client_reference_id ?? null,
    metadata: input.metadata ?? {},
    payment_intent: null,
    subscription: null,
    invoice: null,
    success_url: input.success_url,
    cancel_url: input.cancel_url ?? null,
    url: `${appUrl()}${LOCAL_PAYMENTS_PATH}/checkout/${id}`,
    created,
    expires_at: created + CHECKOUT_HOURS * 3600,
    livemode: false,
    [PRIVATE]: {
      lines,
      paymentIntentMetadata: input.payment_intent_data?.metadata ?? {},
      subscriptionMetadata: input.subscription_data?.metadata ?? {},
    },
  });
}

/** A session past its expiry is expired when next read, as Stripe's are. */
export async function currentCheckoutSession(tx: Db, id: string, options: { lock?: boolean } = {}) {
  const session = await findLocalPaymentObject(tx, id, "checkout.session", options);
  if (session?.status === "open" && Number(session.expires_at) < nowSeconds()) {
    session.status = "expired";
    await saveLocalPaymentObject(tx, session);
  }
  return session;
}

async function refundCreate(tx: Db, input: z.infer<typeof createRefund>): Promise<{ refund: StoredObject; events: PendingEvent[] }> {
  let chargeId = input.charge;
  if (input.payment_intent) {
    const intent = await findLocalPaymentObject(tx, input.payment_intent, "payment_intent");
    if (!intent) throw noSuch("payment_intent", input.payment_intent);
    chargeId = String(intent.latest_charge);
  }
  if (!chargeId) throw new LocalApiError(400, "One of the following params should be provided for this request: payment_intent or charge.");
  const charge = await findLocalPaymentObject(tx, chargeId, "charge", { lock: true });
  if (!charge) throw noSuch("charge", chargeId);
  const left = Number(charge.amount) - Number(charge.amount_refunded);
  const refunding = input.amount ?? left;
  if (left === 0) throw new LocalApiError(400, `Charge ${chargeId} has already been refunded.`, { code: "charge_already_refunded" });
  if (refunding < 1 || refunding > left) {
    throw new LocalApiError(400, `Refund amount (${refunding}) is greater than unrefunded amount on charge (${left})`, { param: "amount" });
  }
  const refund = await createObject(tx, {
    id: newId("re"),
    object: "refund",
    amount: refunding,
    charge: chargeId,
    payment_intent: charge.payment_intent,
    currency: charge.currency,
    status: "succeeded",
    reason: null,
    metadata: input.metadata ?? {},
    created: nowSeconds(),
  });
  const refundedBefore = Number(charge.amount_refunded);
  charge.amount_refunded = refundedBefore + refunding;
  charge.refunded = charge.amount_refunded === charge.amount;
  await saveLocalPaymentObject(tx, charge);
  return {
    refund,
    events: [{ type: "charge.refunded", object: charge, previousAttributes: { amount_refunded: refundedBefore, refunded: false } }],
  };
}

/** Ends a subscription now; the `customer.subscription.deleted` event says so. */
export async function cancelSubscription(tx: Db, subscription: StoredObject): Promise<PendingEvent[]> {
  if (subscription.status === "canceled") return [];
  const now = nowSeconds();
  Object.assign(subscription, { status: "canceled", canceled_at: now, ended_at: now, cancel_at_period_end: false });
  await saveLocalPaymentObject(tx, subscription);
  return [{ type: "customer.subscription.deleted", object: subscription }];
}

interface Reply {
  status: number;
  body: Record<string, unknown>;
  events?: PendingEvent[];
}

const found = (object: StoredObject | null, what: string, id: string): Reply => {
  if (!object) throw noSuch(what, id);
  return { status: 200, body: publicView(object) };
};

/** One API call, inside the transaction of its request. */
async function answer(tx: Db, method: string, parts: string[], params: Record<string, unknown>): Promise<Reply> {
  const [resource, ...rest] = parts;
  const collection = resource === "checkout" || resource === "billing_portal" ? `${resource}/${rest.shift() ?? ""}` : resource;
  const id = rest.length === 1 ? rest[0]! : rest.length === 0 ? null : undefined;
  const route = id === undefined ? "" : `${method} ${collection}${id ? "/:id" : ""}`;
  switch (route) {
    case "POST checkout/sessions":
      return { status: 200, body: publicView(await checkoutSessionCreate(tx, parse(createCheckoutSession, params))) };
    case "GET checkout/sessions/:id":
      return found(await currentCheckoutSession(tx, id!), "checkout.session", id!);
    case "POST billing_portal/sessions": {
      const input = parse(createPortalSession, params);
      if (!(await findLocalPaymentObject(tx, input.customer, "customer"))) throw noSuch("customer", input.customer);
      const sessionId = newId("bps");
      const session = await createObject(tx, {
        id: sessionId,
        object: "billing_portal.session",
        customer: input.customer,
        return_url: input.return_url ?? null,
        url: `${appUrl()}${LOCAL_PAYMENTS_PATH}/portal/${sessionId}`,
        created: nowSeconds(),
        livemode: false,
      });
      return { status: 200, body: publicView(session) };
    }
    case "POST refunds": {
      const { refund, events } = await refundCreate(tx, parse(createRefund, params));
      return { status: 200, body: publicView(refund), events };
    }
    case "POST customers": {
      const input = parse(createCustomer, params);
      const customer = await createObject(tx, {
        id: newId("cus"),
        object: "customer",
        email: input.email ?? null,
        name: input.name ?? null,
        metadata: input.metadata ?? {},
        created: nowSeconds(),
        livemode: false,
      });
      return { status: 200, body: publicView(customer) };
    }
    case "GET customers/:id":
      return found(await findLocalPaymentObject(tx, id!, "customer"), "customer", id!);
    case "GET subscriptions/:id":
      return found(await findLocalPaymentObject(tx, id!, "subscription"), "subscription", id!);
    case "DELETE subscriptions/:id": {
      const subscription = await findLocalPaymentObject(tx, id!, "subscription", { lock: true });
      if (!subscription) throw noSuch("subscription", id!);
      const events = await cancelSubscription(tx, subscription);
      return { status: 200, body: publicView(subscription), events };
    }
    case "GET subscriptions": {
      // A customer's subscriptions, as Stripe's lists answer them.
      if (typeof params.customer !== "string") throw new LocalApiError(400, "Missing required param: customer.", { param: "customer" });
      const data = await listLocalPaymentObjects(tx, "subscription", { customer: params.customer });
      return { status: 200, body: { object: "list", url: "/v1/subscriptions", has_more: false, data: data.map(publicView) } };
    }
  }
  throw new LocalApiError(404, `Unrecognized request URL (${method}: /v1/${parts.join("/")}).`);
}

const stripeJson = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "request-id": newId("req"), ...headers },
  });

async function readParams(request: Request, url: URL): Promise<Record<string, unknown>> {
  if (request.method === "GET" || request.method === "DELETE") return parseBracketedForm(url.search.slice(1));
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > 256 * 1024) throw new LocalApiError(413, "The request body is too large.");
  const text = await request.text();
  try {
    return parseBracketedForm(text);
  } catch (error) {
    throw new LocalApiError(400, error instanceof Error ? error.message : "The request body could not be read.");
  }
}

/**
 * Answers one request to /local-payments/v1/{path}. Not found while Stripe is configured; 401
 * without the local key. A POST with an Idempotency-Key gets the first answer to that key again.
 */
export async function answerLocalPaymentsApi(request: Request, path: string): Promise<Response> {
  if (!localPaymentsActive()) return new Response("Not found", { status: 404 });
  try {
    const key = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
    if (!isLocalSecretKey(key)) {
      throw new LocalApiError(401, "Invalid API Key provided.", { type: "invalid_request_error", code: "api_key_invalid" });
    }
    const url = new URL(request.url);
    const params = await readParams(request, url);
    const parts = path.split("/").filter(Boolean);
    if (parts.length === 0 || parts.length > 4 || parts.some((part) => !/^[\w.-]{1,120}$/.test(part))) {
      throw new LocalApiError(404, `Unrecognized request URL (${request.method}: /v1/${path}).`);
    }
    const idempotencyKey = request.method === "POST" ? request.headers.get("idempotency-key")?.slice(0, 255) : undefined;

    const { reply, eventIds, replayed } = await db().transaction(async (tx) => {
      if (idempotencyKey) {
        await lockIdempotencyKey(tx, idempotencyKey);
        const earlier = await findIdempotentReply(tx, idempotencyKey);
        if (earlier) {
          if (earlier.path !== path) {
            throw new LocalApiError(400, "Keys for idempotent requests can only be used for the same endpoint they were first used for.", {
              type: "idempotency_error",
            });
          }
          return { reply: { status: earlier.status, body: earlier.body }, eventIds: [], replayed: true };
        }
      }
      const reply = await answer(tx, request.method, parts, params);
      const eventIds = reply.events ? await recordEvents(tx, reply.events) : [];
      if (idempotencyKey)
        await saveIdempotentReply(tx, { idempotencyKey, method: request.method, path, status: reply.status, body: reply.body });
      return { reply, eventIds, replayed: false };
    });
    await queueDeliveries(eventIds);
    return stripeJson(reply.status, reply.body, {
      ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
      ...(replayed ? { "idempotent-replayed": "true" } : {}),
    });
  } catch (error) {
    if (error instanceof LocalApiError) return stripeJson(error.status, error.body);
    console.error(`local payments ${request.method} /v1/${path} failed:`, error);
    return stripeJson(500, {
      error: { type: "api_error", message: "An error occurred with our connection to the local payment service." },
    });
  }
}
