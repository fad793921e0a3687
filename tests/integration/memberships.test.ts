import crypto from "node:crypto";
import { invoices, payments, type User } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PaymentEvent } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { findEventById } from "~/models/event.server";
import { findUserById, updateUser } from "~/models/user.server";
import { eventEntitlements } from "~/services/commerce/entitlements.server";
import { paymentEffect } from "~/services/commerce/payment-effects.server";
import { paymentsProvider } from "~/services/payments/provider.server";
import type { RunningServer } from "../../server";
import { lastMailTo, loggedInUser, logIn } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { jobsOf, untilJobsFinished } from "../support/jobs";
import { accountOnTestClock, localStripe } from "../support/payments";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// VIP memberships against the real server and the local payment service: joining from the
// billing page with plain form posts, the subscription's signed webhooks making the account a
// member, its Chorus then included, the membership's invoice and receipt, and the portal.

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5" });
});
afterAll(() => server.close());

const card = { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123" };

const text = async (response: Response) =>
  (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&amp;", "&");

const stripeEvent = (type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)): PaymentEvent => ({
  id: `evt_${crypto.randomBytes(8).toString("hex")}`,
  type,
  created,
  data: { object },
});

const applyEvent = (event: PaymentEvent) => db().transaction((tx) => paymentEffect(event, tx, "local"));

/** Joins `plan` from the billing page without JavaScript and pays on the local payment page; the return address. */
async function joinAndPay(client: TestClient, plan: "vip-monthly" | "vip-yearly") {
  const join = await client.form("/settings/billing", { plan });
  expect(join.status).toBe(302);
  const checkout = new URL(join.headers.get("location")!);
  expect(checkout.pathname).toMatch(/^\/local-payments\/checkout\/cs_local_\w+$/);
  const paid = await client.form(checkout.pathname, card);
  expect(paid.status).toBe(302);
  return { checkout, back: new URL(paid.headers.get("location")!) };
}

const untilMember = (user: User) =>
  until(
    async () => {
      const found = await findUserById(db(), user.id);
      return found?.subscriptionId ? found : null;
    },
    { timeout: 20_000, what: "the subscription's webhook to make the account a member" },
  );

describe("POST /api/v2/subscriptions/checkout", () => {
  test("a non-member gets one payment page per plan at the catalogue's price; a member gets a 409", async () => {
    const { user, client } = await loggedInUser(server.url);
    const first = await client.post("/api/v2/subscriptions/checkout", { plan: "vip-yearly" });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.id).toMatch(/^cs_local_/);
    // A double press opens the same page.
    const again = await client.post("/api/v2/subscriptions/checkout", { plan: "vip-yearly" });
    expect(again.body.data).toEqual(first.body.data);
    const monthly = await client.post("/api/v2/subscriptions/checkout", { plan: "vip-monthly" });
    expect(monthly.body.data.id).not.toBe(first.body.data.id);

    const page = await text(await client.raw("GET", new URL(first.body.data.url).pathname));
    expect(page).toContain("Pay $99.90 a year");
    const session = (await paymentsProvider().retrieveCheckoutSession(first.body.data.id))!;
    expect(session).toMatchObject({
      mode: "subscription",
      amountTotal: 9990,
      clientReferenceId: user.id,
      metadata: { kind: "membership", userId: user.id, plan: "vip-yearly" },
    });

    await updateUser(db(), user.id, { subscriptionId: "sub_already" });
    const member = await client.post("/api/v2/subscriptions/checkout", { plan: "vip-monthly" });
    expect(member.status).toBe(409);
    expect(member.body).toMatchObject({ success: false, error: { code: "ALREADY_MEMBER" } });
  });

  test("a plan that is not one, or none, is a 400 naming the field; no one logged in is a 401", async () => {
    const { client } = await loggedInUser(server.url);
    for (const body of [{ plan: "chorus" }, { plan: "vip-lifetime" }, {}]) {
      const reply = await client.post("/api/v2/subscriptions/checkout", body);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ success: false, error: { code: "VALIDATION_FAILED", fields: { plan: expect.any(String) } } });
    }
    const anonymous = await new TestClient(server.url).post("/api/v2/subscriptions/checkout", {
      plan: "vip-monthly",
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("the billing page and a membership paid through the local payment service", () => {
  test("join without JavaScript → webhook → member; the Chorus is included, the invoice and receipt arrive, the portal cancels at the period's end", async () => {
    const { user, client } = await loggedInUser(server.url);
    const before = await text(await client.raw("GET", "/settings/billing"));
    expect(before).toContain("VIP membership, monthly");
    expect(before).toContain("Join for $9.99 a month");
    expect(before).toContain("Join for $99.90 a year");
    expect(before).toContain("Every Chorus included");
    expect(before).toContain("No invoices yet");

    const { back } = await joinAndPay(client, "vip-monthly");
    expect(back.pathname).toBe("/checkout/complete");
    const member = await untilMember(user);
    expect(member).toMatchObject({ membershipStatus: "active", membershipPlan: "vip-monthly", membershipEndsAt: null });
    expect(member.paymentCustomerId).toMatch(/^cus_local_/);
    expect(member.membershipRenewsAt!.getTime()).toBeGreaterThan(Date.now() + 20 * 86_400_000);

    // The return page says paid once the membership is ours, and links to the billing page.
    const complete = await until(
      async () => {
        const html = await text(await client.raw("GET", `${back.pathname}${back.search}`));
        return html.includes("<h1>Paid</h1>") && html;
      },
      { timeout: 20_000, what: "the return page to say paid" },
    );
    expect(complete).toContain('href="/settings/billing"');
    expect(complete).toContain("See your membership");

    // The membership's invoice: one payment, one numbered invoice, one receipt.
    const [invoice] = await until(
      async () => {
        const rows = await db().select().from(invoices).where(eq(invoices.userId, user.id));
        return rows.length > 0 && rows;
      },
      { timeout: 20_000, what: "the membership's invoice" },
    );
    expect(invoice).toMatchObject({ total: 999, subtotal: 999, tax: 0, currency: "usd", cartId: null, eventId: null });
    expect(invoice!.providerInvoiceId).toMatch(/^in_local_/);
    expect(invoice!.lines).toEqual([expect.objectContaining({ key: "vip-monthly", name: "VIP membership, monthly", amount: 999 })]);
    const [payment] = await db().select().from(payments).where(eq(payments.id, invoice!.paymentId!));
    expect(payment).toMatchObject({ amount: 999, status: "paid", userId: user.id, provider: "local" });
    await untilJobsFinished("invoice-receipt", { data: { invoiceId: invoice!.id } });
    const receiptMail = await lastMailTo(user.email);
    expect(receiptMail?.subject).toBe(`Your Chorus receipt ${invoice!.number}`);
    expect(receiptMail?.text).toContain("VIP membership, monthly: $9.99");
    expect(receiptMail?.text).toContain(`/settings/billing/invoices/${invoice!.id}`);

    // The billing page now shows the membership, and no plans to join.
    const billing = await text(await client.raw("GET", "/settings/billing"));
    expect(billing).toContain("You're a VIP member");
    expect(billing).toContain("VIP membership, monthly · $9.99 a month");
    expect(billing).toContain("Active");
    expect(billing).toContain("Renews on");
    expect(billing).toContain("Manage payment details");
    expect(billing).toContain('href="/settings/billing/cancel"');
    expect(billing).not.toContain("Join for");
    expect(billing).toContain(invoice!.number);
    expect((await client.post("/api/v2/subscriptions/checkout", { plan: "vip-yearly" })).status).toBe(409);

    // A member's new Chorus costs nothing and is settled without a payment.
    const event = await createTestEvent(member);
    const cart = (await client.post("/api/v2/carts", { eventId: event.id })).body.data;
    expect(cart.totals.total).toBe(0);
    expect(cart.lineItems[0]).toMatchObject({ key: "chorus", included: "membership", amount: 0 });
    const checkoutPage = await text(await client.raw("GET", `/e/${event.uuid}/checkout`));
    expect(checkoutPage).toContain("Included with your VIP membership");
    const finalized = await client.post(`/api/v2/carts/${cart.id}/finalize`);
    expect(finalized.status, JSON.stringify(finalized.body)).toBe(200);
    expect((await findEventById(db(), event.id))!.paid).toBe(true);

    // Both invoices, newest first, in the API and on the page; each opens as a receipt.
    const list = await client.get("/api/v2/invoices");
    expect(list.body.data.map((i: { number: string }) => i.number)).toEqual([finalized.body.data.invoiceNumber, invoice!.number]);
    expect(list.body.data[1]).toMatchObject({ kind: "membership", what: "VIP membership, monthly", status: "paid", total: 999 });
    expect(list.body.data[0]).toMatchObject({ kind: "chorus", status: "paid", total: 0 });
    const receipt = await text(await client.raw("GET", `/settings/billing/invoices/${invoice!.id}`));
    expect(receipt).toContain(`Receipt ${invoice!.number}`);
    expect(receipt).toContain(user.email);
    expect(receipt).toContain("VIP membership, monthly");
    expect(receipt).toContain("$9.99");
    expect(receipt).toContain("Payment method: <strong>Card</strong>");

    // Manage: the payment service's portal, which cancels at the period's end after asking, as Stripe's does.
    const manage = await client.form("/settings/billing", { intent: "manage" });
    expect(manage.status).toBe(302);
    const portal = new URL(manage.headers.get("location")!);
    expect(portal.pathname).toMatch(/^\/local-payments\/portal\/bps_local_\w+$/);
    const portalPage = await text(await client.raw("GET", portal.pathname));
    expect(portalPage).toContain(`href="${server.url}/settings/billing"`);
    expect((await client.form(portal.pathname, { intent: "cancel", subscription: member.subscriptionId! })).status).toBe(302);
    const cancelling = await until(
      async () => {
        const found = await findUserById(db(), user.id);
        return found?.membershipEndsAt ? found : null;
      },
      { timeout: 20_000, what: "the cancellation's webhook to say when the membership ends" },
    );
    expect(cancelling.subscriptionId).toBe(member.subscriptionId);
    expect(cancelling.membershipEndsAt!.getTime()).toBe(member.membershipRenewsAt!.getTime());
    const after = await text(await client.raw("GET", "/settings/billing"));
    expect(after).toContain("Ends on");
    expect(after).toContain("Keep my membership");
    expect(after).toContain(invoice!.number);
  });

  test("receipts are their owner's and staff's; a refund shows on the list and the receipt", async () => {
    const { user, client } = await loggedInUser(server.url);
    await joinAndPay(client, "vip-yearly");
    await untilMember(user);
    const [invoice] = await until(
      async () => {
        const rows = await db().select().from(invoices).where(eq(invoices.userId, user.id));
        return rows.length > 0 && rows;
      },
      { timeout: 20_000, what: "the membership's invoice" },
    );
    const path = `/settings/billing/invoices/${invoice!.id}`;
    const stranger = await loggedInUser(server.url);
    expect((await stranger.client.raw("GET", path)).status).toBe(404);
    expect((await stranger.client.raw("GET", "/settings/billing/invoices/not-an-id")).status).toBe(404);
    const editor = await loggedInUser(server.url, "editor");
    const staffView = await editor.client.raw("GET", path);
    expect(staffView.status).toBe(200);
    expect(await text(staffView)).toContain(user.email);
    const loggedOut = await new TestClient(server.url).raw("GET", path);
    expect(loggedOut.status).toBe(302);
    expect(loggedOut.headers.get("location")).toContain("/auth/login");

    const [payment] = await db().select().from(payments).where(eq(payments.id, invoice!.paymentId!));
    await paymentsProvider().refund({ paymentIntentId: payment!.providerPaymentId, idempotencyKey: `refund-${payment!.id}` });
    await until(async () => (await db().select().from(payments).where(eq(payments.id, payment!.id)))[0]?.status === "refunded", {
      timeout: 20_000,
      what: "the refund's webhook",
    });
    const list = await client.get("/api/v2/invoices");
    expect(list.body.data[0]).toMatchObject({ id: invoice!.id, status: "refunded", amountRefunded: 9990 });
    const receipt = await text(await client.raw("GET", path));
    expect(receipt).toContain("Refunded");
    expect(receipt).toContain("−$99.90");
    expect(await text(await client.raw("GET", "/settings/billing"))).toContain("Refunded");
  });
});

describe("membership events", () => {
  async function member() {
    const { user } = await loggedInUser(server.url);
    const subscriptionId = `sub_${crypto.randomBytes(6).toString("hex")}`;
    const customerId = `cus_${crypto.randomBytes(6).toString("hex")}`;
    await updateUser(db(), user.id, { subscriptionId, paymentCustomerId: customerId, membershipPlan: "vip-monthly" });
    return { user, subscriptionId, customerId };
  }

  const paidInvoice = (ids: { subscriptionId: string; customerId: string; userId?: string }, fields: Record<string, unknown> = {}) => ({
    id: `in_${crypto.randomBytes(6).toString("hex")}`,
    object: "invoice",
    status: "paid",
    customer: ids.customerId,
    // The newer API's shape: the subscription and its metadata under `parent`.
    parent: {
      type: "subscription_details",
      subscription_details: { subscription: ids.subscriptionId, metadata: ids.userId ? { userId: ids.userId, plan: "vip-yearly" } : {} },
    },
    amount_paid: 999,
    currency: "usd",
    payment_intent: `pi_${crypto.randomBytes(6).toString("hex")}`,
    status_transitions: { paid_at: Math.floor(Date.now() / 1000) },
    ...fields,
  });

  test("invoice.paid records one payment, one invoice and one receipt per invoice, however often it is told", async () => {
    const ids = await member();
    const invoice = paidInvoice(ids);
    const first = await applyEvent(stripeEvent("invoice.paid", invoice));
    expect(first).toMatchObject({ effect: "membership-invoice", userId: ids.user.id, alreadyRecorded: false });
    // The same invoice again, as a new event (Stripe resends) and at once from two deliveries.
    const [a, b] = await Promise.all([applyEvent(stripeEvent("invoice.paid", invoice)), applyEvent(stripeEvent("invoice.paid", invoice))]);
    expect([a, b]).toEqual([
      expect.objectContaining({ alreadyRecorded: true, invoiceId: (first as { invoiceId: string }).invoiceId }),
      expect.objectContaining({ alreadyRecorded: true, invoiceId: (first as { invoiceId: string }).invoiceId }),
    ]);
    const rows = await db().select().from(invoices).where(eq(invoices.userId, ids.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ providerInvoiceId: invoice.id, total: 999, lines: [expect.objectContaining({ key: "vip-monthly" })] });
    expect(await db().select().from(payments).where(eq(payments.userId, ids.user.id))).toHaveLength(1);
    await untilJobsFinished("invoice-receipt", { data: { invoiceId: rows[0]!.id } });
    expect(await jobsOf("invoice-receipt", { data: { invoiceId: rows[0]!.id } })).toHaveLength(1);

    // A renewal is a new invoice of its own, with the next number.
    await applyEvent(stripeEvent("invoice.paid", paidInvoice(ids)));
    const both = await db().select().from(invoices).where(eq(invoices.userId, ids.user.id));
    expect(both).toHaveLength(2);
    expect(new Set(both.map((i) => i.number)).size).toBe(2);
  });

  test("an invoice of no subscription, or of no account of ours, changes nothing", async () => {
    const ids = await member();
    const oneOff = paidInvoice(ids, { parent: null });
    expect(await applyEvent(stripeEvent("invoice.paid", oneOff))).toMatchObject({ effect: "ignored" });
    const stranger = paidInvoice({ subscriptionId: "sub_nobody", customerId: "cus_nobody" });
    expect(await applyEvent(stripeEvent("invoice.paid", stranger))).toMatchObject({ effect: "ignored" });
    expect(await db().select().from(invoices).where(eq(invoices.userId, ids.user.id))).toHaveLength(0);
  });

  test("cancelled to end with its period: still a member, shown as cancelling with its end; resumed, it renews again", async () => {
    const ids = await member();
    const now = Math.floor(Date.now() / 1000);
    const periodEnd = now + 20 * 86_400;
    const subscription = { id: ids.subscriptionId, object: "subscription", customer: ids.customerId, current_period_end: periodEnd };
    await applyEvent(stripeEvent("customer.subscription.updated", { ...subscription, status: "active", cancel_at_period_end: true }, now));
    const cancelling = (await findUserById(db(), ids.user.id))!;
    expect(cancelling).toMatchObject({ subscriptionId: ids.subscriptionId, membershipStatus: "active" });
    expect(cancelling.membershipEndsAt?.getTime()).toBe(periodEnd * 1000);
    const client = new TestClient(server.url);
    await logIn(client, ids.user.email);
    const page = await text(await client.raw("GET", "/settings/billing"));
    expect(page).toContain("Cancelling");
    expect(page).toContain("Ends on");
    expect(page).not.toContain("Renews on");

    await applyEvent(
      stripeEvent("customer.subscription.updated", { ...subscription, status: "active", cancel_at_period_end: false }, now + 1),
    );
    expect((await findUserById(db(), ids.user.id))!.membershipEndsAt).toBeNull();
    expect(await text(await client.raw("GET", "/settings/billing"))).toContain("Renews on");
  });

  test("a late 'incomplete' of the current subscription does not undo it", async () => {
    const ids = await member();
    const now = Math.floor(Date.now() / 1000);
    const subscription = { id: ids.subscriptionId, object: "subscription", customer: ids.customerId, metadata: { userId: ids.user.id } };
    await applyEvent(stripeEvent("customer.subscription.updated", { ...subscription, status: "active" }, now));
    expect(await applyEvent(stripeEvent("customer.subscription.created", { ...subscription, status: "incomplete" }, now))).toMatchObject({
      effect: "ignored",
    });
    expect((await findUserById(db(), ids.user.id))!.subscriptionId).toBe(ids.subscriptionId);
  });
});

describe("leaving VIP, with the payment service's clock moved", () => {
  const day = (seconds: number) =>
    new Date(seconds * 1000).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

  /**
   * A member through the billing page and the local payment page, on a test clock, with two
   * Choruses they started before joining; the end of their first period.
   */
  async function memberOnClock() {
    const { user, client } = await loggedInUser(server.url);
    const startedBefore = await createTestEvent(user);
    const checkedOutAsMember = await createTestEvent(user);
    const clock = await accountOnTestClock(user);
    await joinAndPay(client, "vip-monthly");
    const member = await untilMember(user);
    const periodEnd = member.membershipRenewsAt!.getTime() / 1000;
    return { user, client, clock, member, periodEnd, startedBefore, checkedOutAsMember };
  }

  const invoicesOf = (userId: string) => db().select().from(invoices).where(eq(invoices.userId, userId));

  test("cancelled after confirming: a member until the period's end and not after; a Chorus started or checked out as a member keeps its perks", async () => {
    const { user, client, clock, member, periodEnd, startedBefore, checkedOutAsMember } = await memberOnClock();
    const startedAsMember = await createTestEvent(member);
    expect(startedAsMember.includedWithMembershipAt).not.toBeNull();
    expect(startedBefore.includedWithMembershipAt).toBeNull();
    // One started before joining, checked out as a member (nothing to pay): it keeps its perks too.
    const memberCart = (await client.post("/api/v2/carts", { eventId: checkedOutAsMember.id })).body.data;
    expect((await client.post(`/api/v2/carts/${memberCart.id}/finalize`)).status).toBe(200);

    // "Cancel membership" opens a confirmation step; it cancels nothing by itself.
    expect(await text(await client.raw("GET", "/settings/billing"))).toContain('href="/settings/billing/cancel"');
    const confirm = await text(await client.raw("GET", "/settings/billing/cancel"));
    expect(confirm).toContain("Cancel your membership?");
    expect(confirm).toContain(`stays active until <strong>${day(periodEnd)}</strong>`);
    expect((await findUserById(db(), user.id))!.membershipEndsAt).toBeNull();
    const cancelled = await client.form("/settings/billing/cancel", {});
    expect(cancelled.status).toBe(302);
    expect(cancelled.headers.get("location")).toBe("/settings/billing");

    // Cancelling: still a member; the page says when it ends and offers to keep it.
    const cancelling = (await findUserById(db(), user.id))!;
    expect(cancelling).toMatchObject({ subscriptionId: member.subscriptionId, membershipStatus: "active" });
    expect(cancelling.membershipEndsAt!.getTime()).toBe(periodEnd * 1000);
    const page = await text(await client.raw("GET", "/settings/billing"));
    expect(page).toContain(`Ends on</dt><dd>${day(periodEnd)}`);
    expect(page).toContain("Keep my membership");
    expect(page).not.toContain("Renews on");
    expect(page).not.toContain('href="/settings/billing/cancel"');
    expect(await localStripe().subscriptions.retrieve(member.subscriptionId!)).toMatchObject({
      status: "active",
      cancel_at_period_end: true,
      cancel_at: periodEnd,
    });
    // With nothing left to cancel, the confirmation step goes back to the billing page.
    expect((await client.raw("GET", "/settings/billing/cancel")).headers.get("location")).toBe("/settings/billing");

    // A day before the period's end: still a member, and a Chorus started now is included.
    await clock.advanceTo(periodEnd - 86_400);
    await untilJobsFinished("local-payment-webhook");
    expect((await findUserById(db(), user.id))!.subscriptionId).toBe(member.subscriptionId);
    const startedLate = await createTestEvent((await findUserById(db(), user.id))!);
    expect(startedLate.includedWithMembershipAt).not.toBeNull();

    // Past it: no longer a member, and nothing more was charged.
    await clock.advanceTo(periodEnd + 1);
    const ended = await until(
      async () => {
        const found = await findUserById(db(), user.id);
        return found && !found.subscriptionId ? found : null;
      },
      { timeout: 20_000, what: "the subscription's end to end the membership" },
    );
    expect(ended).toMatchObject({ membershipStatus: "canceled", membershipEndsAt: null });
    expect(await text(await client.raw("GET", "/settings/billing"))).toContain("Join for $9.99 a month");
    // The membership was billed once: its first period (the other invoice is the free checkout's).
    expect((await invoicesOf(user.id)).filter((invoice) => invoice.providerInvoiceId)).toHaveLength(1);

    // What the membership gave the Choruses started under it stays: unlocked, with the premium finish.
    for (const chorus of [startedAsMember, startedLate, checkedOutAsMember]) {
      const rights = await eventEntitlements((await findEventById(db(), chorus.id))!);
      expect({ unlocked: rights.unlocked, premium: rights.premium }).toEqual({ unlocked: true, premium: true });
      // Delivery passes the payment check (and asks for the recipient's address, which it lacks).
      expect((await client.post(`/api/v2/events/${chorus.id}/deliver`, {})).body.error.code).toBe("NO_RECIPIENT_CONTACT");
    }
    // Those not checked out yet still can be, at no cost: the Chorus and its finish stay included.
    for (const chorus of [startedAsMember, startedLate]) {
      const cart = (await client.post("/api/v2/carts", { eventId: chorus.id })).body.data;
      expect(cart.totals.total).toBe(0);
      expect(cart.lineItems[0]).toMatchObject({ key: "chorus", included: "membership" });
    }
    // One started before joining, or after leaving, is to be paid for again.
    const startedAfter = await createTestEvent(ended);
    for (const chorus of [startedBefore, startedAfter]) {
      const rights = await eventEntitlements((await findEventById(db(), chorus.id))!);
      expect({ unlocked: rights.unlocked, premium: rights.premium }).toEqual({ unlocked: false, premium: false });
      expect((await client.post(`/api/v2/events/${chorus.id}/deliver`, {})).status).toBe(402);
    }
  });

  test("kept before the end: at the period's end it renews, with a new invoice and its receipt, and stays", async () => {
    const { user, client, clock, member, periodEnd } = await memberOnClock();
    expect((await client.form("/settings/billing/cancel", {})).status).toBe(302);
    expect((await findUserById(db(), user.id))!.membershipEndsAt).not.toBeNull();

    const kept = await client.form("/settings/billing", { intent: "keep" });
    expect(kept.status).toBe(302);
    const keeping = (await findUserById(db(), user.id))!;
    expect(keeping).toMatchObject({ subscriptionId: member.subscriptionId, membershipEndsAt: null });
    const page = await text(await client.raw("GET", "/settings/billing"));
    expect(page).toContain(`Renews on</dt><dd>${day(periodEnd)}`);
    expect(page).not.toContain("Keep my membership");
    expect(await localStripe().subscriptions.retrieve(member.subscriptionId!)).toMatchObject({
      cancel_at_period_end: false,
      cancel_at: null,
    });

    await clock.advanceTo(periodEnd + 1);
    const both = await until(
      async () => {
        const rows = await invoicesOf(user.id);
        return rows.length === 2 && rows;
      },
      { timeout: 20_000, what: "the renewal's invoice" },
    );
    const renewal = both.find((invoice) => invoice.paidAt.getTime() === periodEnd * 1000)!;
    expect(renewal).toMatchObject({ total: 999, lines: [expect.objectContaining({ key: "vip-monthly" })] });
    await untilJobsFinished("invoice-receipt", { data: { invoiceId: renewal.id } });
    expect((await lastMailTo(user.email))?.subject).toBe(`Your Chorus receipt ${renewal.number}`);
    const renewed = await until(
      async () => {
        const found = await findUserById(db(), user.id);
        return found && found.membershipRenewsAt!.getTime() > periodEnd * 1000 ? found : null;
      },
      { timeout: 20_000, what: "the renewal's new period" },
    );
    expect(renewed).toMatchObject({ subscriptionId: member.subscriptionId, membershipStatus: "active", membershipEndsAt: null });
  });
});
