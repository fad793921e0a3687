import crypto from "node:crypto";
import { localPaymentObjects, paymentEvents } from "drizzle/schema";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MembershipPlanPrice, PaymentCheckoutInput } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { findLocalPaymentObject, saveLocalPaymentObject } from "~/models/local-payment.server";
import { localPaymentKeys } from "~/services/payments/local/keys.server";
import { endLocalSubscriptionPeriod } from "~/services/payments/local/subscriptions.server";
import { paymentsProvider } from "~/services/payments/provider.server";
import type { RunningServer } from "../../server";
import { loggedInUser } from "../support/accounts";
import { type TestClient } from "../support/http-client";
import { jobsOf, untilJobsFinished } from "../support/jobs";
import { localStripe } from "../support/payments";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// With no STRIPE_SECRET_KEY, the app's own Stripe-compatible service takes payments end to end:
// the Stripe adapter (through the port) makes a session on it over HTTP, the payer pays on its
// checkout page with a test card and JavaScript off, its signed events reach our webhook route by
// the job queue, and the return page says paid. The payer is signed in, and the sessions are for
// their carts: a session's state is told to its payer alone.

let server: RunningServer;
let payer: TestClient;
let payerId: string;

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5" });
  ({
    client: payer,
    user: { id: payerId },
  } = await loggedInUser(server.url));
});
afterAll(() => server?.close());

const EVENT_UUID = "0b8f3a56-7d43-4c1e-9a55-2f3b9e1d6c70";

const payment = (overrides: Partial<PaymentCheckoutInput> = {}): PaymentCheckoutInput => ({
  customerEmail: "payer@example.test",
  clientReferenceId: "cart-9",
  metadata: { kind: "cart", cartId: "cart-9", eventUuid: EVENT_UUID, userId: payerId },
  successUrl: `${server.url}/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
  cancelUrl: `${server.url}/e/${EVENT_UUID}?checkout=cancelled`,
  idempotencyKey: `cart-9-${crypto.randomUUID()}`,
  lines: [
    { name: "Printed copy", unitAmount: 1250, currency: "usd", quantity: 2 },
    { name: "Gift box", unitAmount: 500, currency: "usd", quantity: 1 },
  ],
  ...overrides,
});

const VIP: MembershipPlanPrice = { key: "vip-monthly", name: "Chorus VIP", unitAmount: 999, currency: "usd", interval: "month" };

async function pageText(response: Response) {
  return (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&amp;", "&");
}

const checkoutPath = (url: string) => {
  const parsed = new URL(url);
  expect(parsed.origin).toBe(server.url);
  expect(parsed.pathname).toMatch(/^\/local-payments\/checkout\/cs_local_\w+$/);
  return parsed.pathname;
};

/** Ledger rows about one object whose effects have been applied. */
const appliedEvents = (objectId: string) =>
  db()
    .select()
    .from(paymentEvents)
    .where(and(eq(paymentEvents.objectId, objectId), isNotNull(paymentEvents.processedAt)));

async function untilApplied(objectId: string, type: string) {
  return until(async () => (await appliedEvents(objectId)).find((row) => row.type === type), {
    timeout: 20_000,
    what: `${type} of ${objectId} applied`,
  });
}

const card = (cardNumber: string) => ({ cardNumber, expiry: "12 / 40", cvc: "123" });

describe("the local payment service", () => {
  test("a session made through the port is paid with 4242 on its page; its webhook reaches the route and the return page says paid", async () => {
    const input = payment();
    const ref = await paymentsProvider().createPaymentCheckout(input);
    expect(paymentsProvider().name).toBe("local");
    const path = checkoutPath(ref.url);

    const page = await pageText(await payer.raw("GET", path));
    expect(page).toContain("Pay $30.00");
    expect(page).toContain("Printed copy × 2");
    expect(page).toContain("$25.00");
    expect(page).toContain("Paying as <strong>payer@example.test</strong>");
    expect(page).toContain(`href="${input.cancelUrl}"`);

    const paid = await payer.form(path, card("4242 4242 4242 4242"));
    expect(paid.status).toBe(302);
    expect(paid.headers.get("location")).toBe(`${server.url}/checkout/complete?session_id=${ref.id}`);

    const session = await paymentsProvider().retrieveCheckoutSession(ref.id);
    expect(session).toMatchObject({ status: "complete", paymentStatus: "paid", amountTotal: 3000, clientReferenceId: "cart-9" });
    expect(session!.paymentIntentId).toMatch(/^pi_local_/);
    expect(session!.customerId).toMatch(/^cus_local_/);

    await untilJobsFinished("local-payment-webhook", {}, { atLeast: 1 });
    const [row] = await appliedEvents(ref.id);
    expect(row).toMatchObject({ type: "checkout.session.completed" });
    const state = await payer.get(`/api/stripe/retrieve-session?session_id=${ref.id}`);
    expect(state.body.data).toMatchObject({ state: "paid", backTo: `/e/${EVENT_UUID}` });
    const complete = await pageText(await payer.raw("GET", `/checkout/complete?session_id=${ref.id}`));
    expect(complete).toContain("<h1>Paid</h1>");
    expect(complete).toContain("$30.00");

    // A second press of Pay after the payment sends the payer on, and pays nothing more.
    const again = await payer.form(path, card("4242 4242 4242 4242"));
    expect(again.headers.get("location")).toBe(`${server.url}/checkout/complete?session_id=${ref.id}`);
    expect(await appliedEvents(ref.id)).toHaveLength(1);
  });

  test("a discount is a coupon on the session: its page shows the lines at their price, the code's line and the total, which is what is charged", async () => {
    const ref = await paymentsProvider().createPaymentCheckout(payment({ discount: { name: "SPRING (20 % off)", amount: 600 } }));
    expect(ref.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    const page = await pageText(await payer.raw("GET", checkoutPath(ref.url)));
    expect(page).toContain("Printed copy × 2");
    expect(page).toMatch(/Subtotal<\/span><span>\$30\.00/);
    expect(page).toMatch(/SPRING \(20 % off\)<\/span><span>−\$6\.00/);
    expect(page).toContain("Pay $24.00");

    expect((await payer.form(checkoutPath(ref.url), card("4242 4242 4242 4242"))).status).toBe(302);
    expect(await paymentsProvider().retrieveCheckoutSession(ref.id)).toMatchObject({ status: "complete", amountTotal: 2400 });
    const [session] = await db().select().from(localPaymentObjects).where(eq(localPaymentObjects.id, ref.id));
    expect(session!.data).toMatchObject({ amount_subtotal: 3000, amount_total: 2400, total_details: { amount_discount: 600 } });
    const coupon = (session!.data as { discounts: { coupon: string }[] }).discounts[0]!.coupon;
    const [stored] = await db().select().from(localPaymentObjects).where(eq(localPaymentObjects.id, coupon));
    expect(stored!.data).toMatchObject({ object: "coupon", amount_off: 600, currency: "usd", times_redeemed: 1, max_redemptions: 1 });
  });

  test("4000 0000 0000 0002 is declined with a message, and the session stays open and unpaid", async () => {
    const ref = await paymentsProvider().createPaymentCheckout(payment());
    const path = checkoutPath(ref.url);
    const declined = await payer.form(path, card("4000 0000 0000 0002"));
    expect(declined.status).toBe(402);
    const page = await pageText(declined);
    expect(page).toContain("Your card was declined.");
    expect(page).toContain('aria-invalid="true"');
    expect(await paymentsProvider().retrieveCheckoutSession(ref.id)).toMatchObject({
      status: "open",
      paymentStatus: "unpaid",
      paymentIntentId: null,
    });
    const state = await payer.get(`/api/stripe/retrieve-session?session_id=${ref.id}`);
    expect(state.body.data.state).toBe("open");
  });

  test("the page asks for an e-mail when the app gave none, and names what is missing", async () => {
    const ref = await paymentsProvider().createPaymentCheckout(payment({ customerEmail: "" as string, customerId: null }));
    const path = checkoutPath(ref.url);
    const page = await pageText(await payer.raw("GET", path));
    expect(page).toContain('name="email"');
    const missing = await pageText(await payer.form(path, card("4242 4242 4242 4242")));
    expect(missing).toContain("Enter your e-mail.");
    const blank = await pageText(await payer.form(path, { email: "a@example.test", cardNumber: "", expiry: "", cvc: "" }));
    expect(blank).toContain("Enter your card number.");
  });

  test("the same idempotency key twice gives one session", async () => {
    const input = payment();
    const first = await paymentsProvider().createPaymentCheckout(input);
    const second = await paymentsProvider().createPaymentCheckout(input);
    expect(second).toEqual(first);
    const other = await paymentsProvider().createPaymentCheckout({ ...input, idempotencyKey: `${input.idempotencyKey}-b` });
    expect(other.id).not.toBe(first.id);
  });

  test("a membership: paid on the page, its events arrive; the portal asks before cancelling, ends it with its period and renews it until then", async () => {
    const ref = await paymentsProvider().createSubscriptionCheckout({ ...payment(), plan: VIP });
    const path = checkoutPath(ref.url);
    expect(await pageText(await payer.raw("GET", path))).toContain("Pay $9.99 a month");
    expect((await payer.form(path, card("4242424242424242"))).status).toBe(302);

    const session = (await paymentsProvider().retrieveCheckoutSession(ref.id))!;
    expect(session).toMatchObject({ mode: "subscription", status: "complete", paymentIntentId: null });
    const subscriptionId = session.subscriptionId!;
    expect(subscriptionId).toMatch(/^sub_local_/);
    await untilApplied(ref.id, "checkout.session.completed");
    await untilApplied(subscriptionId, "customer.subscription.created");
    await untilApplied(subscriptionId, "customer.subscription.updated");
    // Its period's end is queued on the real clock.
    const subscription = await localStripe().subscriptions.retrieve(subscriptionId);
    const periodEnd = subscription.items.data[0]!.current_period_end;
    const [periodJob] = await jobsOf("local-subscription-period-end", { data: { subscriptionId } });
    expect(periodJob!.startAfter.getTime()).toBe((periodEnd + 1) * 1000);

    const portal = await paymentsProvider().createBillingPortalSession({
      customerId: session.customerId!,
      returnUrl: `${server.url}/settings/billing`,
    });
    const portalPath = new URL(portal.url).pathname;
    expect(portalPath).toMatch(/^\/local-payments\/portal\/bps_local_\w+$/);
    const portalPage = await pageText(await payer.raw("GET", portalPath));
    expect(portalPage).toContain("Chorus VIP");
    expect(portalPage).toContain("$9.99 a month · renews on");
    expect(portalPage).toContain(`href="?cancel=${subscriptionId}"`);
    expect(portalPage).toContain(`href="${server.url}/settings/billing"`);

    // Cancelling is a link to a confirmation step, which says until when it stays.
    const ends = new Date(periodEnd * 1000).toLocaleDateString("en-GB", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    });
    const confirm = await pageText(await payer.raw("GET", `${portalPath}?cancel=${subscriptionId}`));
    expect(confirm).toContain("Cancel your membership?");
    expect(confirm).toContain(`stays active until <strong>${ends}</strong>`);
    const cancelled = await payer.form(portalPath, { intent: "cancel", subscription: subscriptionId });
    expect(cancelled.status).toBe(302);
    expect(cancelled.headers.get("location")).toBe(portalPath);
    expect(await pageText(await payer.raw("GET", portalPath))).toContain(`$9.99 a month · ends on ${ends}`);
    expect(await localStripe().subscriptions.retrieve(subscriptionId)).toMatchObject({
      status: "active",
      cancel_at_period_end: true,
      cancel_at: periodEnd,
    });
    const cancelEvent = await until(
      async () =>
        (await db().select().from(localPaymentObjects).where(eq(localPaymentObjects.object, "event"))).find((row) => {
          const event = row.data as { type: string; data: { object: { id: string; cancel_at_period_end?: boolean } } };
          return (
            event.type === "customer.subscription.updated" &&
            event.data.object.id === subscriptionId &&
            event.data.object.cancel_at_period_end
          );
        }),
      { what: "the cancellation's updated event" },
    );
    expect(cancelEvent.data).toMatchObject({
      data: { object: { cancel_at: periodEnd }, previous_attributes: { cancel_at_period_end: false, cancel_at: null } },
    });

    // Renewed before the end: it renews again.
    expect((await payer.form(portalPath, { intent: "renew", subscription: subscriptionId })).status).toBe(302);
    expect(await pageText(await payer.raw("GET", portalPath))).toContain(`$9.99 a month · renews on ${ends}`);
    expect(await localStripe().subscriptions.retrieve(subscriptionId)).toMatchObject({ cancel_at_period_end: false, cancel_at: null });

    // Another customer's portal cannot change it.
    const stranger = await paymentsProvider().createPaymentCheckout(payment());
    await payer.form(checkoutPath(stranger.url), card("4242 4242 4242 4242"));
    const strangerSession = (await paymentsProvider().retrieveCheckoutSession(stranger.id))!;
    const strangerPortal = await paymentsProvider().createBillingPortalSession({
      customerId: strangerSession.customerId!,
      returnUrl: server.url,
    });
    const strangerPath = new URL(strangerPortal.url).pathname;
    expect((await payer.form(strangerPath, { intent: "cancel", subscription: subscriptionId })).status).toBe(404);
    expect(await pageText(await payer.raw("GET", `${strangerPath}?cancel=${subscriptionId}`))).not.toContain("Cancel your membership?");
  });

  test("on a test clock, a membership renews at each period's end on its card, and one cancelled at the period's end then ends", async () => {
    const stripe = localStripe();
    const start = Math.floor(Date.UTC(2031, 0, 15, 12) / 1000);
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start, name: "a year of membership" });
    expect(clock).toMatchObject({ object: "test_helpers.test_clock", frozen_time: start, status: "ready" });
    const customer = await stripe.customers.create({ email: "clocked@example.test", test_clock: clock.id });
    const ref = await paymentsProvider().createSubscriptionCheckout({ ...payment(), customerId: customer.id, plan: VIP });
    await payer.form(checkoutPath(ref.url), card("4242 4242 4242 4242"));
    const subscriptionId = (await paymentsProvider().retrieveCheckoutSession(ref.id))!.subscriptionId!;
    // The subscription lives at the clock's time, and no job waits for its period on the real clock.
    const first = await stripe.subscriptions.retrieve(subscriptionId);
    expect(first.items.data[0]).toMatchObject({
      current_period_start: start,
      current_period_end: Math.floor(Date.UTC(2031, 1, 15, 12) / 1000),
    });
    expect(await jobsOf("local-subscription-period-end", { data: { subscriptionId } })).toEqual([]);

    // Two months and a day later: two renewals, each a paid invoice with its own payment.
    const advanced = await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: Math.floor(Date.UTC(2031, 2, 16) / 1000) });
    expect(advanced).toMatchObject({ status: "ready", frozen_time: Math.floor(Date.UTC(2031, 2, 16) / 1000) });
    const renewals = await until(
      async () => {
        const rows = (await appliedEvents(subscriptionId)).filter((row) => row.type === "customer.subscription.updated");
        return rows.length >= 3 && rows;
      },
      { timeout: 20_000, what: "two renewals' updated events applied" },
    );
    expect(renewals).toHaveLength(3);
    const renewed = await stripe.subscriptions.retrieve(subscriptionId);
    expect(renewed).toMatchObject({ status: "active" });
    expect(renewed.items.data[0]).toMatchObject({
      current_period_start: Math.floor(Date.UTC(2031, 2, 15, 12) / 1000),
      current_period_end: Math.floor(Date.UTC(2031, 3, 15, 12) / 1000),
    });
    const paidInvoices = (await db().select().from(localPaymentObjects).where(eq(localPaymentObjects.object, "invoice")))
      .map(
        (row) =>
          row.data as { subscription: string; billing_reason: string; amount_paid: number; payment_intent: string; period_start: number },
      )
      .filter((invoice) => invoice.subscription === subscriptionId)
      .sort((a, b) => a.period_start - b.period_start);
    expect(paidInvoices.map((invoice) => invoice.billing_reason)).toEqual([
      "subscription_create",
      "subscription_cycle",
      "subscription_cycle",
    ]);
    expect(new Set(paidInvoices.map((invoice) => invoice.payment_intent)).size).toBe(3);
    expect(paidInvoices.every((invoice) => invoice.amount_paid === 999)).toBe(true);

    // Cancelled at the period's end: still active a day before it, ended the moment after.
    const cancelling = await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    expect(cancelling).toMatchObject({
      status: "active",
      cancel_at_period_end: true,
      cancel_at: Math.floor(Date.UTC(2031, 3, 15, 12) / 1000),
    });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: Math.floor(Date.UTC(2031, 3, 14, 12) / 1000) });
    expect(await stripe.subscriptions.retrieve(subscriptionId)).toMatchObject({ status: "active" });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: Math.floor(Date.UTC(2031, 3, 15, 12) / 1000) + 1 });
    expect(await stripe.subscriptions.retrieve(subscriptionId)).toMatchObject({
      status: "canceled",
      ended_at: Math.floor(Date.UTC(2031, 3, 15, 12) / 1000),
    });
    await untilApplied(subscriptionId, "customer.subscription.deleted");
    // A clock goes forward only.
    await expect(stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start })).rejects.toMatchObject({ param: "frozen_time" });
  });

  test("on the real clock, a period's end job renews the membership and queues the next one", async () => {
    const ref = await paymentsProvider().createSubscriptionCheckout({ ...payment(), plan: VIP });
    await payer.form(checkoutPath(ref.url), card("4242 4242 4242 4242"));
    const subscriptionId = (await paymentsProvider().retrieveCheckoutSession(ref.id))!.subscriptionId!;
    // As if the month had gone by: its period ended a second ago.
    const ended = Math.floor(Date.now() / 1000) - 1;
    await db().transaction(async (tx) => {
      const stored = (await findLocalPaymentObject(tx, subscriptionId, "subscription", { lock: true }))!;
      Object.assign(stored, { current_period_end: ended });
      (stored.items as { data: Record<string, unknown>[] }).data[0]!.current_period_end = ended;
      await saveLocalPaymentObject(tx, stored);
    });
    await endLocalSubscriptionPeriod(subscriptionId);
    const renewed = await localStripe().subscriptions.retrieve(subscriptionId);
    expect(renewed.items.data[0]!.current_period_start).toBe(ended);
    const next = renewed.items.data[0]!.current_period_end;
    expect(next).toBeGreaterThan(ended + 27 * 86_400);
    expect((await jobsOf("local-subscription-period-end", { data: { subscriptionId } })).map((job) => job.startAfter.getTime())).toContain(
      (next + 1) * 1000,
    );
    await until(
      async () => (await appliedEvents(subscriptionId)).filter((row) => row.type === "customer.subscription.updated").length >= 2,
      {
        timeout: 20_000,
        what: "the renewal's updated event",
      },
    );
    // Run again for a period already renewed, it does nothing.
    await endLocalSubscriptionPeriod(subscriptionId);
    expect((await localStripe().subscriptions.retrieve(subscriptionId)).items.data[0]!.current_period_end).toBe(next);
  });

  test("a refund through the port sends charge.refunded; more than was paid is refused", async () => {
    const ref = await paymentsProvider().createPaymentCheckout(payment());
    await payer.form(checkoutPath(ref.url), card("4242 4242 4242 4242"));
    const { paymentIntentId } = (await paymentsProvider().retrieveCheckoutSession(ref.id))!;
    const refund = await paymentsProvider().refund({ paymentIntentId: paymentIntentId!, amount: 1000, idempotencyKey: `refund-${ref.id}` });
    expect(refund).toMatchObject({ id: expect.stringMatching(/^re_local_/), status: "succeeded" });
    const again = await paymentsProvider().refund({ paymentIntentId: paymentIntentId!, amount: 1000, idempotencyKey: `refund-${ref.id}` });
    expect(again.id).toBe(refund.id);
    const [charge] = await until(
      async () => {
        const rows = await db().select().from(paymentEvents).where(eq(paymentEvents.type, "charge.refunded"));
        return rows.length ? rows : null;
      },
      { timeout: 20_000, what: "charge.refunded in the ledger" },
    );
    expect(charge!.objectId).toMatch(/^ch_local_/);
    await expect(
      paymentsProvider().refund({ paymentIntentId: paymentIntentId!, amount: 2500, idempotencyKey: `refund-too-much-${ref.id}` }),
    ).rejects.toMatchObject({
      name: "PaymentServiceError",
      retryable: false,
    });
  });

  test("the cancel link goes back to the cancel URL, and the return page says nothing was charged", async () => {
    const input = payment();
    const ref = await paymentsProvider().createPaymentCheckout(input);
    const page = await pageText(await payer.raw("GET", checkoutPath(ref.url)));
    expect(page).toMatch(new RegExp(`<a href="${input.cancelUrl.replace(/[?]/g, "\\?")}">Cancel and go back</a>`));
    const back = await pageText(await payer.raw("GET", `/checkout/complete?session_id=${ref.id}`));
    expect(back).toContain("Not paid yet");
    expect(back).toContain("Nothing was charged.");
  });

  test("customers and subscriptions answer as Stripe's do, and a cancelled subscription sends its event", async () => {
    const api = (method: string, path: string, form?: Record<string, string>) =>
      payer.raw(method, `/local-payments/v1/${path}`, {
        body: form ? new URLSearchParams(form) : undefined,
        headers: {
          authorization: `Bearer ${localPaymentKeys().secretKey}`,
          ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
      });
    const customer = await (await api("POST", "customers", { email: "member@example.test", "metadata[userId]": "u-1" })).json();
    expect(customer).toMatchObject({ object: "customer", email: "member@example.test", metadata: { userId: "u-1" } });
    expect(await (await api("GET", `customers/${customer.id}`)).json()).toEqual(customer);
    expect((await api("GET", "customers/cus_local_missing")).status).toBe(404);

    const ref = await paymentsProvider().createSubscriptionCheckout({ ...payment(), customerId: customer.id, plan: VIP });
    const page = await pageText(await payer.raw("GET", checkoutPath(ref.url)));
    expect(page).toContain("Paying as <strong>member@example.test</strong>");
    expect((await payer.form(checkoutPath(ref.url), card("4242 4242 4242 4242"))).status).toBe(302);
    const list = await (await api("GET", `subscriptions?customer=${customer.id}`)).json();
    expect(list).toMatchObject({
      object: "list",
      data: [{ object: "subscription", status: "active", customer: customer.id, metadata: { plan: "vip-monthly" } }],
    });
    const subscriptionId = list.data[0].id as string;
    expect(await (await api("DELETE", `subscriptions/${subscriptionId}`)).json()).toMatchObject({ id: subscriptionId, status: "canceled" });
    await untilApplied(subscriptionId, "customer.subscription.deleted");
    expect(await (await api("POST", "checkout/sessions", { mode: "payment", success_url: "not a url" })).json()).toMatchObject({
      error: { type: "invalid_request_error", param: expect.any(String) },
    });
  });

  test("a session past its expires_at expires when read, sends checkout.session.expired once, and takes no payment", async () => {
    const ref = await paymentsProvider().createPaymentCheckout(payment());
    expect(await paymentsProvider().retrieveCheckoutSession(ref.id)).toMatchObject({ status: "open", url: ref.url });
    // As if its 24 hours had gone by with no one looking.
    await db()
      .update(localPaymentObjects)
      .set({ data: sql`jsonb_set(${localPaymentObjects.data}, '{expires_at}', to_jsonb(extract(epoch from now())::int - 1))` })
      .where(eq(localPaymentObjects.id, ref.id));
    expect(await paymentsProvider().retrieveCheckoutSession(ref.id)).toMatchObject({ status: "expired", url: ref.url });
    await untilApplied(ref.id, "checkout.session.expired");
    expect(await paymentsProvider().retrieveCheckoutSession(ref.id)).toMatchObject({ status: "expired" });
    const page = await pageText(await payer.form(checkoutPath(ref.url), card("4242 4242 4242 4242")));
    expect(page).toContain("This payment page has expired");
    const told = await db().select().from(paymentEvents).where(eq(paymentEvents.objectId, ref.id));
    expect(told.map((row) => row.type)).toEqual(["checkout.session.expired"]);

    // An expiry is for the future, and no more than a day away.
    const refused = await payer.raw("POST", "/local-payments/v1/checkout/sessions", {
      body: new URLSearchParams({
        mode: "payment",
        "line_items[0][quantity]": "1",
        "line_items[0][price_data][currency]": "usd",
        "line_items[0][price_data][unit_amount]": "100",
        "line_items[0][price_data][product_data][name]": "A thing",
        success_url: `${server.url}/done`,
        expires_at: String(Math.floor(Date.now() / 1000) - 60),
      }),
      headers: { authorization: `Bearer ${localPaymentKeys().secretKey}`, "content-type": "application/x-www-form-urlencoded" },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { type: "invalid_request_error", param: "expires_at" } });
  });

  test("its pages refuse a form posted from another site", async () => {
    const ref = await paymentsProvider().createPaymentCheckout(payment());
    const refused = await payer.form(checkoutPath(ref.url), card("4242 4242 4242 4242"), { origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(await paymentsProvider().retrieveCheckoutSession(ref.id)).toMatchObject({ status: "open" });
  });

  test("the service's API refuses a request without its key, in Stripe's error shape", async () => {
    const reply = await payer.get("/local-payments/v1/checkout/sessions/cs_local_x", { authorization: "Bearer sk_test_wrong" });
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ error: { type: "invalid_request_error", code: "api_key_invalid" } });
    expect((await payer.raw("GET", "/local-payments/checkout/cs_local_missing")).status).toBe(404);
  });
});
