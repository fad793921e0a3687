import { z } from "zod";
import { LOCAL_PAYMENTS_PATH } from "~/integrations/payments/local.server";
import { enqueue } from "~/jobs/queue.server";
import type { Db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { validateInput } from "~/lib/http.server";
import { findLocalPaymentObject, saveLocalPaymentObject, type StoredObject } from "~/models/local-payment.server";
import { discountOf, sessionDiscounts } from "./coupons.server";
import { createObject, LocalApiError, newId, noSuch, nowSeconds, PRIVATE, recordEvents, type PendingEvent } from "./objects.server";

// The objects the local payment service keeps and changes as Stripe does (checkout sessions,
// refunds, subscriptions), and the shapes of the calls that make them, checked as Stripe checks them.

const CHECKOUT_HOURS = 24;

const metadata = z.record(z.string().max(40), z.string().max(500)).optional();
const amount = z.coerce.number().int().min(0).max(99_999_999);

export const createCheckoutSession = z
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
    discounts: sessionDiscounts.optional(),
    customer: z.string().max(100).optional(),
    customer_email: z.email().optional(),
    client_reference_id: z.string().max(200).optional(),
    metadata,
    payment_intent_data: z.object({ metadata }).optional(),
    subscription_data: z.object({ metadata }).optional(),
    success_url: z.url(),
    cancel_url: z.url().optional(),
    // Stripe takes 30 minutes to 24 hours; the local service takes any span up to 24 hours, so tests
    // can watch a page expire.
    expires_at: z.coerce.number().int().optional(),
  })
  .refine(
    (input) =>
      input.expires_at === undefined || (input.expires_at > nowSeconds() && input.expires_at <= nowSeconds() + CHECKOUT_HOURS * 3600),
    {
      message: "The expires_at timestamp must be in the future and at most 24 hours from now.",
      path: ["expires_at"],
    },
  )
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

export const createPortalSession = z.object({ customer: z.string().min(1).max(100), return_url: z.url().optional() });
export const createRefund = z.object({
  payment_intent: z.string().max(100).optional(),
  charge: z.string().max(100).optional(),
  amount: amount.optional(),
  metadata,
});
export const createCustomer = z.object({
  email: z.email().optional(),
  name: z.string().max(256).optional(),
  metadata,
  // A customer made on a test clock lives at its time (test-clocks.server.ts).
  test_clock: z.string().max(100).optional(),
});
// The SDK sends booleans as the words "true" and "false".
const flag = z.enum(["true", "false"]).transform((value) => value === "true");
export const updateSubscription = z.object({ cancel_at_period_end: flag.optional() });

export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = validateInput(schema, input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const param = issue.path.map((part, i) => (i === 0 ? String(part) : `[${String(part)}]`)).join("");
  throw new LocalApiError(400, param ? `Invalid ${param}: ${issue.message}` : issue.message, { param: param || undefined });
}

export const appUrl = () => env().APP_URL;

export async function checkoutSessionCreate(tx: Db, input: z.infer<typeof createCheckoutSession>) {
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
  const subtotal = lines.reduce((sum, line) => sum + line.amount_total, 0);
  const discount = await discountOf(tx, input.discounts, currency, subtotal);
  const total = subtotal - (discount?.amount ?? 0);
  const expiresAt = input.expires_at ?? created + CHECKOUT_HOURS * 3600;
  // Its expiry is sent as Stripe sends it, as an event, even when no one looks at the session again.
  await enqueue("local-checkout-expire", { sessionId: id }, { startAfter: expiryMoment(expiresAt), db: tx });
  return createObject(tx, {
    id,
    object: "checkout.session",
    mode: input.mode,
    status: "open",
    payment_status: "unpaid",
    amount_subtotal: subtotal,
    amount_total: total,
    total_details: { amount_discount: discount?.amount ?? 0, amount_shipping: 0, amount_tax: 0 },
    discounts: discount ? [{ coupon: discount.couponId, promotion_code: null }] : [],
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
    expires_at: expiresAt,
    livemode: false,
    [PRIVATE]: {
      lines,
      discount: discount ? { couponId: discount.couponId, name: discount.name, amount: discount.amount } : null,
      paymentIntentMetadata: input.payment_intent_data?.metadata ?? {},
      subscriptionMetadata: input.subscription_data?.metadata ?? {},
    },
  });
}

/** Just past the session's last open second (`expires_at` is in whole seconds). */
const expiryMoment = (expiresAt: number) => new Date((expiresAt + 1) * 1000);

/**
 * The session, locked until `tx` ends. One still open past its expiry becomes expired here, and its
 * `checkout.session.expired` event is recorded and its delivery queued in `tx`, once: whoever reads
 * it first (the expiry job, the payment page, the API) expires it.
 */
export async function currentCheckoutSession(tx: Db, id: string) {
  const session = await findLocalPaymentObject(tx, id, "checkout.session", { lock: true });
  if (session?.status === "open" && Number(session.expires_at) <= nowSeconds()) {
    session.status = "expired";
    await saveLocalPaymentObject(tx, session);
    const [eventId] = await recordEvents(tx, [{ type: "checkout.session.expired", object: session }]);
    await enqueue("local-payment-webhook", { eventId: eventId! }, { db: tx });
  }
  return session;
}

/** The expiry job: the session expires if it is still open; a job run early waits again for its moment. */
export async function expireCheckoutSession(tx: Db, id: string) {
  const session = await currentCheckoutSession(tx, id);
  if (session?.status === "open") {
    const at = expiryMoment(Number(session.expires_at));
    await enqueue("local-checkout-expire", { sessionId: id }, { startAfter: at, db: tx });
  }
}

export async function refundCreate(tx: Db, input: z.infer<typeof createRefund>): Promise<{ refund: StoredObject; events: PendingEvent[] }> {
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
