import { LOCAL_PAYMENTS_PATH } from "~/integrations/payments/local.server";
import { db, type Db } from "~/lib/db.server";
import {
  findIdempotentReply,
  findLocalPaymentObject,
  listLocalPaymentObjects,
  lockIdempotencyKey,
  saveIdempotentReply,
  type StoredObject,
} from "~/models/local-payment.server";
import { localPaymentsActive } from "../provider.server";
import { couponCreate, createCoupon } from "./coupons.server";
import { parseBracketedForm } from "./form-body";
import { isLocalSecretKey } from "./keys.server";
import {
  createObject,
  LocalApiError,
  newId,
  noSuch,
  nowSeconds,
  publicView,
  queueDeliveries,
  recordEvents,
  type PendingEvent,
} from "./objects.server";
import {
  appUrl,
  checkoutSessionCreate,
  createCheckoutSession,
  createCustomer,
  createPortalSession,
  createRefund,
  currentCheckoutSession,
  parse,
  refundCreate,
  updateSubscription,
} from "./resources.server";
import { cancelSubscription, setCancelAtPeriodEnd } from "./subscriptions.server";
import { advanceTestClock, createTestClock, testClockAdvance, testClockCreate } from "./test-clocks.server";

// The local payment service's API: the part of Stripe's the app uses, at /local-payments/v1/...,
// answering the official SDK as Stripe would (form-encoded requests, JSON answers, Stripe's error
// shape, idempotency keys). It answers only while the local provider is active; the objects it
// makes and changes are in resources.server.ts.

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
  const nested = resource === "checkout" || resource === "billing_portal" || resource === "test_helpers";
  const collection = nested ? `${resource}/${rest.shift() ?? ""}` : resource;
  // `collection`, `collection/:id`, or an action on one (`test_helpers/test_clocks/:id/advance`).
  const [id = null, action = null, ...beyond] = rest;
  const route = beyond.length > 0 ? "" : `${method} ${collection}${id ? "/:id" : ""}${action ? `/${action}` : ""}`;
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
      if (input.test_clock && !(await findLocalPaymentObject(tx, input.test_clock, "test_helpers.test_clock"))) {
        throw noSuch("test_clock", input.test_clock);
      }
      const customer = await createObject(tx, {
        id: newId("cus"),
        object: "customer",
        email: input.email ?? null,
        name: input.name ?? null,
        metadata: input.metadata ?? {},
        test_clock: input.test_clock ?? null,
        created: nowSeconds(),
        livemode: false,
      });
      return { status: 200, body: publicView(customer) };
    }
    case "POST coupons":
      return { status: 200, body: publicView(await couponCreate(tx, parse(createCoupon, params))) };
    case "GET coupons/:id":
      return found(await findLocalPaymentObject(tx, id!, "coupon"), "coupon", id!);
    case "GET customers/:id":
      return found(await findLocalPaymentObject(tx, id!, "customer"), "customer", id!);
    case "GET subscriptions/:id":
      return found(await findLocalPaymentObject(tx, id!, "subscription"), "subscription", id!);
    case "POST subscriptions/:id": {
      const input = parse(updateSubscription, params);
      const subscription = await findLocalPaymentObject(tx, id!, "subscription", { lock: true });
      if (!subscription) throw noSuch("subscription", id!);
      const events =
        input.cancel_at_period_end === undefined ? [] : await setCancelAtPeriodEnd(tx, subscription, input.cancel_at_period_end);
      return { status: 200, body: publicView(subscription), events };
    }
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
    case "POST test_helpers/test_clocks":
      return { status: 200, body: publicView(await testClockCreate(tx, parse(createTestClock, params))) };
    case "GET test_helpers/test_clocks/:id":
      return found(await findLocalPaymentObject(tx, id!, "test_helpers.test_clock"), "test_helpers.test_clock", id!);
    case "POST test_helpers/test_clocks/:id/advance": {
      const clock = await findLocalPaymentObject(tx, id!, "test_helpers.test_clock", { lock: true });
      if (!clock) throw noSuch("test_helpers.test_clock", id!);
      const advanced = await testClockAdvance(tx, clock, parse(advanceTestClock, params));
      return { status: 200, body: publicView(advanced.clock), events: advanced.events };
    }
  }
  throw new LocalApiError(404, `Unrecognized request URL (${method}: /v1/${parts.join("/")}).`);
}

/** One call to the local API, as the route read it off the request. */
export interface LocalApiCall {
  method: string;
  /** The path after /v1/. */
  path: string;
  /** The form-encoded parameters, from the query (GET, DELETE) or the body. */
  params: Record<string, unknown>;
  authorization: string | null;
  idempotencyKey: string | null;
}

/** What to answer: a status, a Stripe-shaped JSON body, and Stripe's idempotency headers. */
export interface LocalApiReply {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** A body over the route's limit: answered 413 in Stripe's shape when thrown while reading the call. */
export const bodyTooLarge = () => new LocalApiError(413, "The request body is too large.");

/** The form-encoded parameters of a call's query or body; a body that cannot be read is a 400 in Stripe's shape. */
export function localApiParams(text: string): Record<string, unknown> {
  try {
    return parseBracketedForm(text);
  } catch (error) {
    throw new LocalApiError(400, error instanceof Error ? error.message : "The request body could not be read.");
  }
}

/**
 * Answers one call to /local-payments/v1/{path}, read by `readCall` (its errors, such as a body too
 * large, are answered in Stripe's shape too). Null while Stripe is configured (the route answers
 * 404); 401 without the local key. A POST with an Idempotency-Key gets the first answer to that key again.
 */
export async function answerLocalPaymentsCall(readCall: () => Promise<LocalApiCall>): Promise<LocalApiReply | null> {
  if (!localPaymentsActive()) return null;
  let method = "?";
  let path = "";
  try {
    const { params, authorization, idempotencyKey: rawKey, ...named } = await readCall();
    ({ method, path } = named);
    const key = /^Bearer (.+)$/.exec(authorization ?? "")?.[1] ?? "";
    if (!isLocalSecretKey(key)) {
      throw new LocalApiError(401, "Invalid API Key provided.", { type: "invalid_request_error", code: "api_key_invalid" });
    }
    const parts = path.split("/").filter(Boolean);
    if (parts.length === 0 || parts.length > 4 || parts.some((part) => !/^[\w.-]{1,120}$/.test(part))) {
      throw new LocalApiError(404, `Unrecognized request URL (${method}: /v1/${path}).`);
    }
    const idempotencyKey = method === "POST" ? rawKey?.slice(0, 255) : undefined;

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
      const reply = await answer(tx, method, parts, params);
      const eventIds = reply.events ? await recordEvents(tx, reply.events) : [];
      if (idempotencyKey) await saveIdempotentReply(tx, { idempotencyKey, method, path, status: reply.status, body: reply.body });
      return { reply, eventIds, replayed: false };
    });
    await queueDeliveries(eventIds);
    return {
      status: reply.status,
      body: reply.body,
      headers: { ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}), ...(replayed ? { "idempotent-replayed": "true" } : {}) },
    };
  } catch (error) {
    if (error instanceof LocalApiError) return { status: error.status, body: error.body, headers: {} };
    console.error(`local payments ${method} /v1/${path} failed:`, error);
    return {
      status: 500,
      body: { error: { type: "api_error", message: "An error occurred with our connection to the local payment service." } },
      headers: {},
    };
  }
}
