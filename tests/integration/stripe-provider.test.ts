import crypto from "node:crypto";
import { invoices, payments, paymentEvents } from "drizzle/schema";
import { eq, sql } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PaymentServiceError, type PaymentCheckoutInput } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { findEventById } from "~/models/event.server";
import { paymentsProvider } from "~/services/payments/provider.server";
import type { RunningServer } from "../../server";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { allowConsoleError } from "../support/fail-on-console-error";
import { TestClient } from "../support/http-client";
import { startStripeStandIn, type StripeStandIn } from "../support/stripe-stand-in";
import { startTestServer } from "../support/test-server";

// The Stripe provider through the official SDK, pointed at a stand-in of Stripe's API by the
// STRIPE_API_* settings, and the webhook route of the running app with Stripe's own signatures.

const SECRET_KEY = "sk_test_stand_in";
const WEBHOOK_SECRET = "whsec_stand_in_secret";

let standIn: StripeStandIn;
let server: RunningServer;
let client: TestClient;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  server = await startTestServer({
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_HOST: "127.0.0.1",
    STRIPE_API_PORT: String(standIn.port),
    STRIPE_API_PROTOCOL: "http",
    STRIPE_TIMEOUT_SECONDS: "1",
    STRIPE_NETWORK_RETRIES: "1",
  });
  client = new TestClient(server.url);
});
afterAll(async () => {
  await server?.close();
  await standIn?.close();
});

const checkout = (overrides: Partial<PaymentCheckoutInput> = {}): PaymentCheckoutInput => ({
  customerEmail: "payer@example.test",
  clientReferenceId: "cart-1",
  metadata: { kind: "cart", cartId: "cart-1", cartVersion: "3" },
  successUrl: `${server.url}/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
  cancelUrl: `${server.url}/dashboard`,
  idempotencyKey: `cart-1-v3-${crypto.randomUUID()}`,
  lines: [
    { name: "Printed copy", unitAmount: 1250, currency: "usd", quantity: 2 },
    { name: "Gift box", description: "Wrapped", unitAmount: 500, currency: "usd", quantity: 1 },
  ],
  ...overrides,
});

/** A webhook body and its header, signed as Stripe signs them. */
function signedEvent(event: { id?: string; type: string; object: Record<string, unknown> }, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify({
    id: event.id ?? `evt_test_${crypto.randomBytes(8).toString("hex")}`,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    type: event.type,
    data: { object: event.object },
  });
  return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

const postWebhook = (payload: string, header: string | undefined, extra: Record<string, string> = {}) =>
  client.raw("POST", "/stripe/webhook", {
    body: payload,
    headers: { "content-type": "application/json", ...(header ? { "stripe-signature": header } : {}), ...extra },
  });

const ledgerRows = (id: string) => db().select().from(paymentEvents).where(eq(paymentEvents.id, id));

describe("the Stripe provider through the official SDK", () => {
  test("a payment checkout is a POST of our lines with price_data, our references and the idempotency key", async () => {
    const input = checkout();
    const ref = await paymentsProvider().createPaymentCheckout(input);
    const request = standIn.requests.at(-1)!;
    expect(request).toMatchObject({
      method: "POST",
      path: "/v1/checkout/sessions",
      idempotencyKey: input.idempotencyKey,
      authorization: `Bearer ${SECRET_KEY}`,
    });
    const form = Object.fromEntries(request.form);
    expect(form).toMatchObject({
      mode: "payment",
      "line_items[0][quantity]": "2",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "1250",
      "line_items[0][price_data][product_data][name]": "Printed copy",
      "line_items[1][price_data][unit_amount]": "500",
      "line_items[1][price_data][product_data][description]": "Wrapped",
      customer_email: "payer@example.test",
      client_reference_id: "cart-1",
      "metadata[cartId]": "cart-1",
      "metadata[cartVersion]": "3",
      "payment_intent_data[metadata][cartId]": "cart-1",
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    // A page stays open Stripe's own 24 hours unless CHECKOUT_EXPIRY_SECONDS asks for less.
    expect(form.expires_at).toBeUndefined();
    expect(standIn.sessions.get(ref.id)).toMatchObject({ amount_total: 3000 });
    expect(ref.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
  });

  test("a discount is a one-off coupon of exactly its amount, named in the session's discounts, keyed with the session", async () => {
    const input = checkout({ discount: { name: "SPRING-2026-LONG-NAME (20 % off) and more words", amount: 600 } });
    const ref = await paymentsProvider().createPaymentCheckout(input);
    const [couponRequest, sessionRequest] = standIn.requests.slice(-2);
    expect(couponRequest).toMatchObject({ method: "POST", path: "/v1/coupons", idempotencyKey: `${input.idempotencyKey}:coupon` });
    expect(Object.fromEntries(couponRequest!.form)).toMatchObject({
      amount_off: "600",
      currency: "usd",
      duration: "once",
      max_redemptions: "1",
      name: "SPRING-2026-LONG-NAME (20 % off) and mor",
    });
    expect(sessionRequest!.form.get("discounts[0][coupon]")).toMatch(/^co_test_/);
    // The lines go at their price; the coupon takes the discount off.
    expect(sessionRequest!.form.get("line_items[0][price_data][unit_amount]")).toBe("1250");
    expect(standIn.sessions.get(ref.id)).toMatchObject({ amount_subtotal: 3000, amount_total: 2400 });
    expect(ref.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
  });

  test("the same idempotency key twice makes one session", async () => {
    const input = checkout();
    const before = standIn.sessions.size;
    const first = await paymentsProvider().createPaymentCheckout(input);
    const second = await paymentsProvider().createPaymentCheckout(input);
    expect(second.id).toBe(first.id);
    expect(standIn.sessions.size).toBe(before + 1);
    expect(standIn.requests.slice(-2).map((r) => r.idempotencyKey)).toEqual([input.idempotencyKey, input.idempotencyKey]);
  });

  test("a membership checkout is a subscription with a recurring price_data, and a known customer is named", async () => {
    const { lines: _lines, ...common } = checkout();
    await paymentsProvider().createSubscriptionCheckout({
      ...common,
      customerId: "cus_test_known",
      plan: { key: "vip-monthly", name: "VIP", unitAmount: 999, currency: "usd", interval: "month" },
    });
    const form = Object.fromEntries(standIn.requests.at(-1)!.form);
    expect(form).toMatchObject({
      mode: "subscription",
      customer: "cus_test_known",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][unit_amount]": "999",
      "line_items[0][price_data][recurring][interval]": "month",
      "line_items[0][price_data][product_data][metadata][plan]": "vip-monthly",
      "subscription_data[metadata][plan]": "vip-monthly",
    });
    expect(form.customer_email).toBeUndefined();
  });

  test("a session is read back in the port's terms; an unknown one is null", async () => {
    const ref = await paymentsProvider().createPaymentCheckout(checkout());
    expect(await paymentsProvider().retrieveCheckoutSession(ref.id)).toMatchObject({
      id: ref.id,
      mode: "payment",
      status: "open",
      paymentStatus: "unpaid",
      amountTotal: 3000,
      currency: "usd",
      clientReferenceId: "cart-1",
      metadata: { kind: "cart", cartId: "cart-1", cartVersion: "3" },
    });
    expect(await paymentsProvider().retrieveCheckoutSession("cs_test_missing")).toBeNull();
  });

  test("refunds and portal sessions carry what we ask for", async () => {
    const refund = await paymentsProvider().refund({
      paymentIntentId: "pi_test_1",
      amount: 700,
      idempotencyKey: "refund-1",
      metadata: { reason: "late" },
    });
    expect(refund.status).toBe("succeeded");
    expect(standIn.requests.at(-1)).toMatchObject({ path: "/v1/refunds", idempotencyKey: "refund-1" });
    expect(Object.fromEntries(standIn.requests.at(-1)!.form)).toMatchObject({
      payment_intent: "pi_test_1",
      amount: "700",
      "metadata[reason]": "late",
    });
    const portal = await paymentsProvider().createBillingPortalSession({
      customerId: "cus_test_1",
      returnUrl: `${server.url}/settings/billing`,
    });
    expect(portal.url).toMatch(/^https:\/\/billing\.stripe\.test\//);
    expect(Object.fromEntries(standIn.requests.at(-1)!.form)).toEqual({
      customer: "cus_test_1",
      return_url: `${server.url}/settings/billing`,
    });
  });

  test("a membership is cancelled at its period's end, or kept, by updating its subscription with our key", async () => {
    const cancelled = await paymentsProvider().setCancelAtPeriodEnd({
      subscriptionId: "sub_test_1",
      cancelAtPeriodEnd: true,
      idempotencyKey: "membership:sub_test_1:cancel",
    });
    expect(cancelled).toMatchObject({ id: "sub_test_1", cancel_at_period_end: true, cancel_at: 1_900_000_000 });
    expect(standIn.requests.at(-1)).toMatchObject({
      method: "POST",
      path: "/v1/subscriptions/sub_test_1",
      idempotencyKey: "membership:sub_test_1:cancel",
    });
    expect(Object.fromEntries(standIn.requests.at(-1)!.form)).toEqual({ cancel_at_period_end: "true" });
    const kept = await paymentsProvider().setCancelAtPeriodEnd({
      subscriptionId: "sub_test_1",
      cancelAtPeriodEnd: false,
      idempotencyKey: "k",
    });
    expect(kept).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
    expect(Object.fromEntries(standIn.requests.at(-1)!.form)).toEqual({ cancel_at_period_end: "false" });
  });

  test("a Stripe 500 is tried again with the same key, then becomes a retryable PaymentServiceError with a plain message", async () => {
    const input = checkout();
    const sent = standIn.requests.length;
    standIn.fail("server-error", 2);
    const error = await paymentsProvider()
      .createPaymentCheckout(input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentServiceError);
    expect(error).toMatchObject({ retryable: true, message: expect.stringMatching(/payment service had a problem.*Nothing was charged/) });
    const attempts = standIn.requests.slice(sent);
    expect(attempts).toHaveLength(2);
    expect(attempts.map((r) => r.idempotencyKey)).toEqual([input.idempotencyKey, input.idempotencyKey]);
  });

  test("a Stripe that does not answer in time becomes a retryable PaymentServiceError", async () => {
    standIn.fail("no-answer", 2);
    const started = Date.now();
    const error = await paymentsProvider()
      .createPaymentCheckout(checkout())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentServiceError);
    expect(error).toMatchObject({ retryable: true, message: expect.stringMatching(/did not answer in time/) });
    // Two tries of one second each (STRIPE_TIMEOUT_SECONDS), not the SDK's default 80 s.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test("the local payment service does not answer while Stripe is configured", async () => {
    expect((await client.raw("GET", "/local-payments/v1/checkout/sessions/cs_x")).status).toBe(404);
    expect((await client.raw("GET", "/local-payments/checkout/cs_x")).status).toBe(404);
    expect((await client.raw("GET", "/local-payments/portal/bps_x")).status).toBe(404);
  });
});

describe("POST /stripe/webhook", () => {
  test("an event signed with the webhook secret is taken into the ledger, also when posted from Stripe's origin", async () => {
    const { payload, header } = signedEvent({
      type: "checkout.session.completed",
      object: { id: "cs_test_hook", object: "checkout.session" },
    });
    const response = await postWebhook(payload, header, { origin: "https://hooks.stripe.example" });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ success: true, data: { received: true, outcome: "ignored" } });
    const [row] = await ledgerRows(body.data.eventId);
    expect(row).toMatchObject({ type: "checkout.session.completed", objectId: "cs_test_hook" });
    expect(row!.processedAt).toBeInstanceOf(Date);
  });

  test("a bad signature, a missing one, another secret's or a changed body is a 400 INVALID_SIGNATURE and leaves no ledger row", async () => {
    const id = `evt_test_${crypto.randomBytes(8).toString("hex")}`;
    const { payload, header } = signedEvent({ id, type: "charge.refunded", object: { id: "ch_1" } });
    const other = signedEvent({ id, type: "charge.refunded", object: { id: "ch_1" } }, "whsec_someone_else");
    for (const [body, signature] of [
      [payload, "t=1,v1=deadbeef"],
      [payload, undefined],
      [payload, other.header],
      [payload.replace("ch_1", "ch_2"), header],
    ] as const) {
      const response = await postWebhook(body, signature);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ success: false, error: { code: "INVALID_SIGNATURE", message: expect.any(String) } });
    }
    expect(await ledgerRows(id)).toHaveLength(0);
  });

  test("the same event delivered twice is applied once", async () => {
    const { payload, header } = signedEvent({ type: "invoice.paid", object: { id: "in_test_twice" } });
    const first = await (await postWebhook(payload, header)).json();
    const second = await (await postWebhook(payload, header)).json();
    expect(first.data.outcome).toBe("ignored");
    expect(second.data).toMatchObject({ received: true, eventId: first.data.eventId, outcome: "duplicate" });
    expect(await db().select().from(paymentEvents).where(eq(paymentEvents.objectId, "in_test_twice"))).toHaveLength(1);
  });

  test("events that arrive out of order, and at once, are each taken in once", async () => {
    const subscription = `sub_test_${crypto.randomBytes(6).toString("hex")}`;
    const deleted = signedEvent({ type: "customer.subscription.deleted", object: { id: subscription, status: "canceled" } });
    const created = signedEvent({ type: "customer.subscription.created", object: { id: subscription, status: "active" } });
    const answers = await Promise.all([
      postWebhook(deleted.payload, deleted.header),
      postWebhook(created.payload, created.header),
      postWebhook(deleted.payload, deleted.header),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const outcomes = await Promise.all(answers.map(async (a) => (await a.json()).data.outcome));
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(1);
    const rows = await db().select().from(paymentEvents).where(eq(paymentEvents.objectId, subscription));
    expect(rows.map((r) => r.type).sort()).toEqual(["customer.subscription.created", "customer.subscription.deleted"]);
  });
  test("a failure after the event is in the ledger answers 500 and rolls the row back, so the retry applies it", async () => {
    const { payload, header } = signedEvent({ type: "invoice.paid", object: { id: "in_test_fails_once" } });
    const eventId = JSON.parse(payload).id as string;
    // The step after applying the event's effects fails, as a failing effect would.
    await db().execute(
      sql.raw(`create function fail_payment_event() returns trigger language plpgsql as $$
      begin if new.id = '${eventId}' then raise exception 'applying failed'; end if; return new; end $$`),
    );
    await db().execute(
      sql`create trigger fail_payment_event before update on payment_events for each row execute function fail_payment_event()`,
    );
    const logged = allowConsoleError();
    try {
      const failed = await postWebhook(payload, header);
      expect(failed.status).toBe(500);
      expect(await failed.json()).toMatchObject({ success: false, error: { code: "INTERNAL" } });
      expect(JSON.stringify(logged.mock.calls)).toContain("fail_payment_event");
    } finally {
      logged.mockRestore();
      await db().execute(sql`drop trigger fail_payment_event on payment_events`);
      await db().execute(sql`drop function fail_payment_event()`);
    }
    expect(await ledgerRows(eventId)).toHaveLength(0);

    const retried = await postWebhook(payload, header);
    expect(await retried.json()).toMatchObject({ success: true, data: { eventId, outcome: "ignored" } });
    expect(await ledgerRows(eventId)).toHaveLength(1);
  });
});

describe("GET /api/stripe/retrieve-session", () => {
  test("a paid session is confirming until its checkout.session.completed webhook has been applied, then paid", async () => {
    // Its payer: the owner of the cart it pays for.
    const { user, client: payer } = await loggedInUser(server.url);
    const ref = await paymentsProvider().createPaymentCheckout(
      checkout({ metadata: { kind: "cart", eventUuid: "6f1c1b0e-4a53-4f7e-9d43-0e8f9d3f2a11", userId: user.id } }),
    );
    const open = await payer.get(`/api/stripe/retrieve-session?session_id=${ref.id}`);
    expect(open.body).toMatchObject({ success: true, data: { sessionId: ref.id, state: "open" } });

    Object.assign(standIn.sessions.get(ref.id)!, { status: "complete", payment_status: "paid", payment_intent: "pi_test_paid" });
    const confirming = await payer.get(`/api/stripe/retrieve-session?session_id=${ref.id}`);
    expect(confirming.body.data).toMatchObject({ state: "confirming", amountTotal: 3000, currency: "usd" });
    const page = await (await payer.raw("GET", `/checkout/complete?session_id=${ref.id}`)).text();
    expect(page).toContain("Confirming your payment…");
    expect(page).toMatch(/<noscript><meta http-equiv="refresh" content="2"\/?><\/noscript>/);

    const { payload, header } = signedEvent({ type: "checkout.session.completed", object: standIn.sessions.get(ref.id)! });
    expect((await postWebhook(payload, header)).status).toBe(200);
    const paid = await payer.get(`/api/stripe/retrieve-session?session_id=${ref.id}`);
    expect(paid.body.data).toMatchObject({ state: "paid", backTo: "/e/6f1c1b0e-4a53-4f7e-9d43-0e8f9d3f2a11" });
    const paidPage = await (await payer.raw("GET", `/checkout/complete?session_id=${ref.id}`)).text();
    expect(paidPage).toContain("<h1>Paid</h1>");
    expect(paidPage).toContain('href="/e/6f1c1b0e-4a53-4f7e-9d43-0e8f9d3f2a11"');
    expect(paidPage).not.toContain("http-equiv");
  });

  test("an unknown or malformed session id is a 404 in the API's shape", async () => {
    for (const id of ["cs_test_nothing_here", "not-a-session", ""]) {
      const reply = await client.get(`/api/stripe/retrieve-session?session_id=${encodeURIComponent(id)}`);
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
    }
    expect((await client.raw("GET", "/checkout/complete?session_id=cs_test_nothing_here")).status).toBe(404);
  });
});

describe("the cart page's Pay with Stripe behind it", () => {
  const pay = async (organiser: TestClient, uuid: string) => {
    const page = await (await organiser.raw("GET", `/e/${uuid}/checkout`)).text();
    const version = page.match(/name="version" value="(\d+)"/)![1]!;
    const body = new URLSearchParams({ intent: "pay", version, billingCountry: "" });
    return organiser.raw("POST", `/e/${uuid}/checkout`, { body, headers: { "content-type": "application/x-www-form-urlencoded" } });
  };

  test("Stripe failing gives a clear message and records nothing; the retry and a second press reuse one key and one session", async () => {
    const { client: organiser, user } = await loggedInUser(server.url);
    const event = await createTestEvent(user);
    const sent = standIn.requests.length;

    standIn.fail("server-error", 2);
    const failed = await pay(organiser, event.uuid);
    expect(failed.status).toBe(503);
    expect(await failed.text()).toMatch(/payment service had a problem.*Nothing was charged/);
    expect(await db().select().from(payments).where(eq(payments.eventId, event.id))).toEqual([]);
    expect(await db().select().from(invoices).where(eq(invoices.eventId, event.id))).toEqual([]);

    const retried = await pay(organiser, event.uuid);
    const again = await pay(organiser, event.uuid);
    expect(retried.status).toBe(302);
    expect(again.headers.get("location")).toBe(retried.headers.get("location"));
    expect(retried.headers.get("location")).toMatch(/^https:\/\/checkout\.stripe\.test\//);

    // Every attempt, failed or not, asked Stripe with the cart version's one key: no second charge can come of it.
    const sessions = standIn.requests.slice(sent).filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions");
    expect(sessions.length).toBeGreaterThanOrEqual(4);
    expect(new Set(sessions.map((r) => r.idempotencyKey))).toEqual(new Set([expect.stringMatching(/^cart:[0-9a-f-]{36}:v\d+$/)]));
    // The amount is ours: the browser sent none, and the session asks for the Chorus's 5.00 USD.
    expect(sessions.at(-1)!.form.get("line_items[0][price_data][unit_amount]")).toBe("500");
    expect((await findEventById(db(), event.id))!.paid).toBe(false);
  });
});
