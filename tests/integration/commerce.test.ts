import crypto from "node:crypto";
import { carts, invoices, payments, promoCodes, promoRedemptions, type Event, type User } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PaymentEvent } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { inviteTokenFor } from "~/lib/invite-token.server";
import { signedFileUrl } from "~/lib/media-url.server";
import { findCartById } from "~/models/cart.server";
import { findEventById, insertRecipient, setEventPaid } from "~/models/event.server";
import { insertPromoCode, type NewPromoCode } from "~/models/promo-code.server";
import { publishVersion } from "~/models/published-media.server";
import { insertRsvp, updateRsvp } from "~/models/rsvp.server";
import { findUserById, updateUser } from "~/models/user.server";
import { loadCartState } from "~/services/commerce/cart-state.server";
import { openCartOf } from "~/services/commerce/carts.server";
import { checkoutInputForCart } from "~/services/commerce/checkout.server";
import { applyPaymentEvent, paymentEffect } from "~/services/commerce/payment-effects.server";
import type { RunningServer } from "../../server";
import { createUser, lastMailTo, loggedInUser, logIn, uniqueEmail } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { jobsOf, untilJobsFinished } from "../support/jobs";
import { grantProducts } from "../support/payments";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5" });
});
afterAll(() => server.close());

async function organiser(occasion = "birthday") {
  const { user, client } = await loggedInUser(server.url);
  const event = await createTestEvent(user, { occasion });
  return { user, client, event };
}

const newCode = (fields: Partial<NewPromoCode> = {}) =>
  insertPromoCode(db(), { code: `TEST-${crypto.randomBytes(4).toString("hex").toUpperCase()}`, kind: "percent", value: 20, ...fields });

async function openCart(client: TestClient, event: Event) {
  const reply = await client.post("/api/v2/carts", { eventId: event.id });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data;
}

describe("carts", () => {
  test("fetch or create: one open cart per event, even asked twice at once, with the Chorus at 5.00 USD", async () => {
    const { client, event } = await organiser();
    const [a, b] = await Promise.all([openCart(client, event), openCart(client, event)]);
    expect(a.id).toBe(b.id);
    expect((await openCart(client, event)).id).toBe(a.id);
    expect(a).toMatchObject({
      eventId: event.id,
      status: "open",
      version: 1,
      products: [{ key: "chorus", quantity: 1 }],
      canUsePromoCode: true,
      promotion: null,
      totals: { subtotal: 500, discount: 0, tax: 0, total: 500, currency: "usd" },
    });
    expect(a.lineItems[0]).toMatchObject({ key: "chorus", name: "Your Chorus", unitAmount: 500, net: 500 });
    expect(a.upsells.map((p: { key: string }) => p.key)).toEqual(["premium"]);
    expect(a.availableAddons.map((p: { key: string }) => p.key)).toEqual(["originals-zip"]);
    expect((await db().select().from(carts).where(eq(carts.eventId, event.id))).length).toBe(1);
  });

  test("an update chooses products by key and a country; amounts and the cart's own fields from the browser are ignored", async () => {
    const { client, event } = await organiser();
    const cart = await openCart(client, event);
    const reply = await client.put(`/api/v2/carts/${cart.id}`, {
      selected: ["premium", "originals-zip"],
      billingCountry: "gb",
      // Spec §3: these are left out of an update; sent anyway, they change nothing.
      totals: { total: 1, subtotal: 1, discount: 0, tax: 0, currency: "usd" },
      lineItems: [{ key: "chorus", unitAmount: 1 }],
      products: [{ key: "chorus", quantity: 50 }],
      userId: crypto.randomUUID(),
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data).toMatchObject({
      version: 2,
      billingCountry: "GB",
      taxation: { country: "GB", label: "VAT", basisPoints: 2000, taxable: 1200, amount: 240 },
      totals: { subtotal: 1200, discount: 0, tax: 240, total: 1440 },
    });
    expect(reply.body.data.lineItems.map((l: { key: string; quantity: number }) => [l.key, l.quantity])).toEqual([
      ["chorus", 1],
      ["premium", 1],
      ["originals-zip", 1],
    ]);

    const unknown = await client.put(`/api/v2/carts/${cart.id}`, { selected: ["guestbook-book"] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields.selected).toMatch(/not something this Chorus can have/);
    const badCountry = await client.put(`/api/v2/carts/${cart.id}`, { billingCountry: "Narnia" });
    expect(badCountry.status).toBe(400);
    expect(badCountry.body.error.fields.billingCountry).toBeTruthy();
    // A refused update changed nothing.
    expect((await client.get(`/api/v2/carts/${cart.id}`)).body.data).toMatchObject({ version: 2, totals: { total: 1440 } });
  });

  test("someone else's cart does not exist for them", async () => {
    const { client, event } = await organiser();
    const cart = await openCart(client, event);
    const stranger = await loggedInUser(server.url);
    expect((await stranger.client.put(`/api/v2/carts/${cart.id}`, { selected: [] })).status).toBe(404);
    expect((await stranger.client.post(`/api/v2/carts/${cart.id}/finalize`)).status).toBe(404);
    expect((await stranger.client.post("/api/v2/carts", { eventId: event.id })).status).toBe(403);
  });

  test("available products of an event: the Chorus, upsells and add-ons with what each gives", async () => {
    const { client, event } = await organiser();
    const reply = await client.get(`/api/v2/stripe/available-products/${event.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data.base).toMatchObject({ key: "chorus", unitAmount: 500, currency: "usd", price: "$5.00", included: null });
    expect(reply.body.data.base.gives).toContain("Full-quality download");
    expect(reply.body.data.upsells[0]).toMatchObject({ key: "premium", selected: false });
    expect(reply.body.data.addons.length).toBeGreaterThan(0);
    expect(reply.body.data.base.owned).toBe(false);

    // Once paid, with an add-on bought, each offer says whether the Chorus has it already.
    await setEventPaid(db(), event.id, true);
    await grantProducts(event, ["originals-zip"]);
    const after = (await client.get(`/api/v2/stripe/available-products/${event.id}`)).body.data;
    expect(after.base.owned).toBe(true);
    expect(after.upsells.find((p: { key: string }) => p.key === "premium").owned).toBe(false);
    expect(after.addons.find((p: { key: string }) => p.key === "originals-zip").owned).toBe(true);
  });
});

describe("POST /v2/stripe/create-checkout-session", () => {
  test("the organiser's cart opens one payment page per version, priced by the server; a changed or free cart says why", async () => {
    const { client, event } = await organiser();
    const cart = (await client.post("/api/v2/carts", { eventId: event.id })).body.data;
    // An amount sent along is not ours to take: the page asks for the cart's own total.
    const first = await client.post("/api/v2/stripe/create-checkout-session", { cartId: cart.id, version: cart.version, amount: 1 });
    expect(first.status).toBe(200);
    expect(first.body.data.url).toMatch(/\/local-payments\/checkout\/cs_/);
    const again = await client.post("/api/v2/stripe/create-checkout-session", { cartId: cart.id });
    expect(again.body.data).toEqual(first.body.data);
    const page = await (await client.raw("GET", new URL(first.body.data.url).pathname)).text();
    expect(page.replaceAll("<!-- -->", "")).toContain("Pay $5.00");

    const changed = await client.put(`/api/v2/carts/${cart.id}`, { selected: ["premium"] });
    expect(changed.status).toBe(200);
    const stale = await client.post("/api/v2/stripe/create-checkout-session", { cartId: cart.id, version: cart.version });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("CART_CHANGED");
    const fresh = await client.post("/api/v2/stripe/create-checkout-session", { cartId: cart.id, version: changed.body.data.version });
    expect(fresh.body.data.id).not.toBe(first.body.data.id);

    const bad = await client.post("/api/v2/stripe/create-checkout-session", { cartId: "nope" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toHaveProperty("cartId");
    const stranger = await loggedInUser(server.url);
    expect((await stranger.client.post("/api/v2/stripe/create-checkout-session", { cartId: cart.id })).status).toBe(404);

    const free = await organiser("getwell");
    const freeCart = (await free.client.post("/api/v2/carts", { eventId: free.event.id })).body.data;
    const nothing = await free.client.post("/api/v2/stripe/create-checkout-session", { cartId: freeCart.id });
    expect(nothing.status).toBe(409);
    expect(nothing.body.error.code).toBe("NOTHING_TO_PAY");
  });
});

describe("promo codes on a cart", () => {
  test("a code is applied whatever its case, counts on the lines it covers, and a bad one is refused by name", async () => {
    const { client, event } = await organiser();
    const cart = await openCart(client, event);
    const code = await newCode({ value: 15, productKeys: ["chorus"] });
    const applied = await client.put(`/api/v2/carts/${cart.id}`, {
      promoCode: ` ${code.code.toLowerCase()} `,
      selected: ["originals-zip"],
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data.promotion).toEqual({ code: code.code, description: "15 % off", discount: 75 });
    expect(applied.body.data.totals).toMatchObject({ subtotal: 800, discount: 75, total: 725 });

    const expired = await newCode({ expiresAt: new Date(Date.now() - 1000) });
    const refused = await client.put(`/api/v2/carts/${cart.id}`, { promoCode: expired.code });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields.promoCode).toBe("This code has expired.");
    const unknown = await client.put(`/api/v2/carts/${cart.id}`, { promoCode: "NO-SUCH-CODE" });
    expect(unknown.body.error.fields.promoCode).toMatch(/don't know this code/);
    const removed = await client.put(`/api/v2/carts/${cart.id}`, { promoCode: null });
    expect(removed.body.data).toMatchObject({ promotion: null, promoCode: null, totals: { total: 800 } });
  });

  test("the payment page shows the Chorus at its price, the code's line and the total", async () => {
    const { client, event } = await organiser();
    const cart = await openCart(client, event);
    const code = await newCode({ kind: "amount", value: 200, currency: "usd" });
    expect((await client.put(`/api/v2/carts/${cart.id}`, { promoCode: code.code })).body.data.totals.total).toBe(300);
    const opened = await client.post("/api/v2/stripe/create-checkout-session", { cartId: cart.id });
    const page = (await (await client.raw("GET", new URL(opened.body.data.url).pathname)).text()).replaceAll("<!-- -->", "");
    expect(page).toMatch(/<span>Your Chorus<\/span><span>\$5\.00<\/span>/);
    expect(page).toContain(`<span>${code.code} ($2.00 off)</span><span>−$2.00</span>`);
    expect(page).toMatch(/<span>Total<\/span><span>\$3\.00<\/span>/);
    expect(page).toContain("Pay $3.00");
  });

  test("check: unknown, why not, and what it takes off a given cart", async () => {
    const { client, event } = await organiser();
    await openCart(client, event);
    const unknown = await client.get("/api/v2/promo-codes/check/NOPE-123");
    expect(unknown.body.data).toMatchObject({ applies: false, reason: "unknown" });
    const paused = await newCode({ paused: true });
    expect((await client.get(`/api/v2/promo-codes/check/${paused.code}`)).body.data).toMatchObject({ applies: false, reason: "paused" });
    const amount = await newCode({ kind: "amount", value: 200, currency: "usd" });
    const general = await client.get(`/api/v2/promo-codes/check/${amount.code}`);
    expect(general.body.data).toMatchObject({ applies: true, description: "$2.00 off" });
    const onCart = await client.get(`/api/v2/promo-codes/check/${amount.code.toLowerCase()}?eventId=${event.id}`);
    expect(onCart.body.data).toMatchObject({ applies: true, discount: 200, total: 300 });
    const someoneElses = await newCode({ ownerUserId: (await createUser()).id });
    expect((await client.get(`/api/v2/promo-codes/check/${someoneElses.code}`)).body.data).toMatchObject({ reason: "not_yours" });
    const stranger = await loggedInUser(server.url);
    expect((await stranger.client.get(`/api/v2/promo-codes/check/${amount.code}?eventId=${event.id}`)).status).toBe(403);
  });

  test("a user's own codes only; staff see anyone's", async () => {
    const { user, client } = await organiser();
    const own = await newCode({ ownerUserId: user.id });
    const byEmail = await newCode({ ownerEmail: user.email.toUpperCase() });
    await newCode();
    const mine = await client.get(`/api/v2/promo-codes/user/${user.id}`);
    expect(mine.body.data.map((c: { code: string }) => c.code).sort()).toEqual([own.code, byEmail.code].sort());
    const other = await loggedInUser(server.url);
    expect((await other.client.get(`/api/v2/promo-codes/user/${user.id}`)).status).toBe(404);
    const editor = await loggedInUser(server.url, "editor");
    expect((await editor.client.get(`/api/v2/promo-codes/user/${user.id}`)).body.data).toHaveLength(2);
  });
});

describe("free checkout", () => {
  test("a 100 % code: the Chorus is paid, a zero invoice and one redemption; a second finalize changes nothing", async () => {
    const { client, event } = await organiser();
    const cart = await openCart(client, event);
    const code = await newCode({ value: 100, maxRedemptions: 5 });
    expect((await client.put(`/api/v2/carts/${cart.id}`, { promoCode: code.code, billingCountry: "DE" })).body.data.totals.total).toBe(0);
    const done = await client.post(`/api/v2/carts/${cart.id}/finalize`);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({ alreadyFinalized: false, cart: { status: "paid", canUsePromoCode: false } });
    expect(done.body.data.invoiceNumber).toMatch(/^CH-\d{6}$/);
    expect((await findEventById(db(), event.id))!.paid).toBe(true);
    const again = await client.post(`/api/v2/carts/${cart.id}/finalize`);
    expect(again.body.data).toMatchObject({ alreadyFinalized: true, invoiceNumber: done.body.data.invoiceNumber });
    expect(await db().select().from(promoRedemptions).where(eq(promoRedemptions.cartId, cart.id))).toHaveLength(1);
    const list = await client.get("/api/v2/invoices");
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({
      number: done.body.data.invoiceNumber,
      total: 0,
      discount: 500,
      promoCode: code.code,
      country: "DE",
    });
    // The paid cart cannot be changed; the event's cart from now on is a later purchase of what the
    // Chorus does not have yet, without the Chorus itself.
    const later = await openCart(client, event);
    expect(later.id).not.toBe(cart.id);
    expect(later.laterPurchase).toBe(true);
    expect(later.lineItems.some((line: { key: string }) => line.key === "chorus")).toBe(false);
    expect((await client.put(`/api/v2/carts/${cart.id}`, { selected: ["premium"] })).status).toBe(409);
  });

  test("two finalizations at the same moment settle the cart exactly once", async () => {
    const { client, event } = await organiser("getwell");
    const cart = await openCart(client, event);
    expect(cart.lineItems[0]).toMatchObject({ included: "free-occasion", amount: 0 });
    const code = await newCode({ value: 10 });
    // A code on a free cart covers nothing: it is kept but not redeemed.
    await client.put(`/api/v2/carts/${cart.id}`, { promoCode: code.code });
    const replies = await Promise.all(Array.from({ length: 4 }, () => client.post(`/api/v2/carts/${cart.id}/finalize`)));
    for (const reply of replies) expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(replies.filter((r) => !r.body.data.alreadyFinalized)).toHaveLength(1);
    expect(new Set(replies.map((r) => r.body.data.invoiceNumber)).size).toBe(1);
    expect(await db().select().from(invoices).where(eq(invoices.cartId, cart.id))).toHaveLength(1);
    expect(await db().select().from(promoRedemptions).where(eq(promoRedemptions.cartId, cart.id))).toHaveLength(0);
  });

  test("a member's Chorus is included; a cart that costs something is refused with 402", async () => {
    const { user, client, event } = await organiser();
    const cart = await openCart(client, event);
    const refused = await client.post(`/api/v2/carts/${cart.id}/finalize`);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: "PAYMENT_REQUIRED" });
    expect(refused.body.error.message).toMatch(/\$5\.00/);
    expect((await findEventById(db(), event.id))!.paid).toBe(false);
    await updateUser(db(), user.id, { subscriptionId: "sub_member" });
    const member = await client.get(`/api/v2/carts/${cart.id}`);
    expect(member.body.data.lineItems[0]).toMatchObject({ included: "membership" });
    expect(member.body.data.totals.total).toBe(0);
    expect((await client.post(`/api/v2/carts/${cart.id}/finalize`)).status).toBe(200);
  });

  test("a code used up meanwhile is refused at finalize, and its limit holds", async () => {
    const code = await newCode({ value: 100, maxRedemptions: 1 });
    const first = await organiser();
    const second = await organiser();
    const cartA = await openCart(first.client, first.event);
    const cartB = await openCart(second.client, second.event);
    await first.client.put(`/api/v2/carts/${cartA.id}`, { promoCode: code.code });
    await second.client.put(`/api/v2/carts/${cartB.id}`, { promoCode: code.code });
    const [a, b] = await Promise.all([
      first.client.post(`/api/v2/carts/${cartA.id}/finalize`),
      second.client.post(`/api/v2/carts/${cartB.id}/finalize`),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((a.status === 409 ? a : b).body.error).toMatchObject({ code: "PROMO_CODE_INVALID" });
    expect(await db().select().from(promoRedemptions).where(eq(promoRedemptions.promoCodeId, code.id))).toHaveLength(1);
  });

  test("a first-purchase code is refused to someone who has paid before", async () => {
    const { user, client, event } = await organiser();
    await payForCartThroughWebhook(user, event);
    const code = await newCode({ firstPurchaseOnly: true });
    const reply = await client.get(`/api/v2/promo-codes/check/${code.code}`);
    expect(reply.body.data).toMatchObject({ applies: false, reason: "first_purchase_only" });
  });
});

const stripeEvent = (type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)): PaymentEvent => ({
  id: `evt_${crypto.randomBytes(8).toString("hex")}`,
  type,
  created,
  data: { object },
});

/** The session a payment service sends back for the checkout of a cart, as it is priced now. */
async function completedSessionFor(cartId: string, user: User) {
  const state = await loadCartState((await findCartById(db(), cartId))!);
  const input = checkoutInputForCart(state, user, { successUrl: "http://x/ok", cancelUrl: "http://x/no" });
  return {
    input,
    session: {
      id: `cs_${crypto.randomBytes(6).toString("hex")}`,
      object: "checkout.session",
      payment_status: "paid",
      payment_intent: `pi_${crypto.randomBytes(6).toString("hex")}`,
      amount_total: input.lines.reduce((sum, l) => sum + l.unitAmount * l.quantity, 0) - (input.discount?.amount ?? 0),
      currency: "usd",
      customer: `cus_${crypto.randomBytes(6).toString("hex")}`,
      client_reference_id: input.clientReferenceId,
      metadata: input.metadata,
    },
  };
}

async function payForCartThroughWebhook(user: User, event: Event) {
  const cart = await openCartOf(event);
  const { session } = await completedSessionFor(cart.id, user);
  await db().transaction((tx) => paymentEffect(stripeEvent("checkout.session.completed", session), tx));
  return { cart, session };
}

describe("payment events", () => {
  test("checkout input: lines add up to the total, keyed by the cart's version, with what was sold", async () => {
    const { user, client, event } = await organiser();
    const cart = await openCart(client, event);
    const code = await newCode({ value: 15 });
    await client.put(`/api/v2/carts/${cart.id}`, { selected: ["premium"], promoCode: code.code, billingCountry: "SE" });
    const { input } = await completedSessionFor(cart.id, user);
    // 900 − 15 % (75 + 60) = 765, + 25 % VAT = 191.25 → 191: 956. The lines are charged at their
    // price and the code's discount is a line of its own, as the payment page shows them.
    expect(input.lines.map((l) => [l.name, l.unitAmount])).toEqual([
      ["Your Chorus", 500],
      ["Premium finish", 400],
      ["VAT 25 %", 191],
    ]);
    expect(input.discount).toEqual({ name: `${code.code} (15 % off)`, amount: 135 });
    expect(input.lines.reduce((sum, l) => sum + l.unitAmount * l.quantity, 0) - input.discount!.amount).toBe(956);
    expect(input.idempotencyKey).toBe(`cart:${cart.id}:v2`);
    expect(input).toMatchObject({ customerEmail: user.email, clientReferenceId: cart.id });
    expect(input.metadata).toMatchObject({
      kind: "cart",
      cartId: cart.id,
      cartVersion: "2",
      products: "chorus:1,premium:1",
      country: "SE",
    });
  });

  test("a completed checkout pays the Chorus once: payment, invoice, redemption and one receipt, whatever is sent again", async () => {
    const { user, client, event } = await organiser();
    const cart = await openCart(client, event);
    const code = await newCode({ value: 20 });
    await client.put(`/api/v2/carts/${cart.id}`, { promoCode: code.code, selected: ["originals-zip"] });
    const { session } = await completedSessionFor(cart.id, user);
    // The organiser changes the cart in another tab after starting checkout: what was paid for counts.
    await client.put(`/api/v2/carts/${cart.id}`, { selected: [] });
    const paid = stripeEvent("checkout.session.completed", session);
    // What the webhook route calls, in the transaction that records the event.
    expect(await db().transaction((tx) => applyPaymentEvent(paid, tx))).toBe("applied");
    expect(await db().transaction((tx) => paymentEffect(paid, tx))).toMatchObject({
      effect: "cart-paid",
      cartId: cart.id,
      alreadyPaid: true,
    });
    expect((await findEventById(db(), event.id))!.paid).toBe(true);
    const [payment, ...more] = await db().select().from(payments).where(eq(payments.cartId, cart.id));
    expect(more).toHaveLength(0);
    expect(payment).toMatchObject({
      amount: 640,
      currency: "usd",
      status: "paid",
      providerPaymentId: session.payment_intent,
      userId: user.id,
    });
    const [invoice] = await db().select().from(invoices).where(eq(invoices.cartId, cart.id));
    expect(invoice).toMatchObject({ subtotal: 800, discount: 160, total: 640, paymentId: payment!.id, promoCode: code.code });
    expect(invoice!.lines.map((l) => l.key)).toEqual(["chorus", "originals-zip"]);
    expect(await db().select().from(promoRedemptions).where(eq(promoRedemptions.cartId, cart.id))).toHaveLength(1);
    expect((await findUserById(db(), user.id))!.paymentCustomerId).toBe(session.customer);
    await untilJobsFinished("invoice-receipt", { data: { invoiceId: invoice!.id } });
    const mail = await lastMailTo(user.email);
    expect(mail?.subject).toBe(`Your Chorus receipt ${invoice!.number}`);
    expect(mail?.text).toContain("Total paid: $6.40");
    expect(await jobsOf("invoice-receipt", { data: { invoiceId: invoice!.id } })).toHaveLength(1);
  });

  test("nothing of a payment is kept, nor its receipt queued, when the webhook's transaction rolls back", async () => {
    const { user, client, event } = await organiser();
    const cart = await openCart(client, event);
    const { session } = await completedSessionFor(cart.id, user);
    const receiptsBefore = (await jobsOf("invoice-receipt")).length;
    await expect(
      db().transaction(async (tx) => {
        await paymentEffect(stripeEvent("checkout.session.completed", session), tx);
        throw new Error("the ledger write failed");
      }),
    ).rejects.toThrow("the ledger write failed");
    expect((await findEventById(db(), event.id))!.paid).toBe(false);
    expect(await db().select().from(invoices).where(eq(invoices.cartId, cart.id))).toHaveLength(0);
    expect(await jobsOf("invoice-receipt")).toHaveLength(receiptsBefore);
    // Applied for real afterwards, it is all there, receipt included.
    await db().transaction((tx) => paymentEffect(stripeEvent("checkout.session.completed", session), tx));
    expect(await jobsOf("invoice-receipt")).toHaveLength(receiptsBefore + 1);
  });

  test("an unpaid session and another kind of checkout change nothing", async () => {
    const { user, client, event } = await organiser();
    const cart = await openCart(client, event);
    const { session } = await completedSessionFor(cart.id, user);
    const unpaid = await db().transaction((tx) =>
      paymentEffect(stripeEvent("checkout.session.completed", { ...session, payment_status: "unpaid" }), tx),
    );
    expect(unpaid).toMatchObject({ effect: "ignored" });
    expect(
      await db().transaction((tx) =>
        applyPaymentEvent(stripeEvent("checkout.session.completed", { ...session, payment_status: "unpaid" }), tx),
      ),
    ).toBe("ignored");
    const membership = await db().transaction((tx) =>
      paymentEffect(stripeEvent("checkout.session.completed", { ...session, metadata: { kind: "membership" } }), tx),
    );
    expect(membership).toMatchObject({ effect: "ignored" });
    expect((await findEventById(db(), event.id))!.paid).toBe(false);
  });

  test("refunds: a partial one leaves the Chorus paid; a full one locks delivery again", async () => {
    const { user, client, event } = await organiser();
    await insertRecipient(db(), event.id, { firstName: "Bo", lastName: "", email: uniqueEmail("bo"), phone: null });
    const { session } = await payForCartThroughWebhook(user, event);
    const charge = { id: "ch_1", object: "charge", payment_intent: session.payment_intent, amount: 500, currency: "usd" };
    const partial = await db().transaction((tx) =>
      paymentEffect(stripeEvent("charge.refunded", { ...charge, amount_refunded: 200, refunded: false }), tx),
    );
    expect(partial).toMatchObject({ effect: "refund", status: "partially_refunded", eventPaid: null });
    expect((await findEventById(db(), event.id))!.paid).toBe(true);
    const full = stripeEvent("charge.refunded", { ...charge, amount_refunded: 500, refunded: true });
    expect(await db().transaction((tx) => paymentEffect(full, tx))).toMatchObject({ status: "refunded", eventPaid: false });
    // The partial refund told again, late, does not undo the full one.
    await db().transaction((tx) => paymentEffect(stripeEvent("charge.refunded", { ...charge, amount_refunded: 200 }), tx));
    const [payment] = await db().select().from(payments).where(eq(payments.providerPaymentId, session.payment_intent));
    expect(payment).toMatchObject({ status: "refunded", amountRefunded: 500 });
    const deliver = await client.post(`/api/v2/events/${event.id}/deliver`, {});
    expect(deliver.status).toBe(402);
  });

  test("memberships follow subscription events, in the order they happened", async () => {
    const user = await createUser();
    const now = Math.floor(Date.now() / 1000);
    const subscription = { id: "sub_abc", object: "subscription", customer: "cus_m1", metadata: { userId: user.id, plan: "vip-yearly" } };
    const created = stripeEvent(
      "customer.subscription.created",
      { ...subscription, status: "active", current_period_end: now + 86_400 * 365 },
      now,
    );
    expect(await db().transaction((tx) => paymentEffect(created, tx))).toMatchObject({
      effect: "membership",
      subscriptionId: "sub_abc",
    });
    expect(await findUserById(db(), user.id)).toMatchObject({
      subscriptionId: "sub_abc",
      membershipStatus: "active",
      membershipPlan: "vip-yearly",
      paymentCustomerId: "cus_m1",
    });
    const failed = stripeEvent("invoice.payment_failed", { id: "in_1", customer: "cus_m1", subscription: "sub_abc" }, now + 10);
    await db().transaction((tx) => paymentEffect(failed, tx));
    expect(await findUserById(db(), user.id)).toMatchObject({ subscriptionId: "sub_abc", membershipStatus: "past_due" });
    const deleted = stripeEvent("customer.subscription.deleted", { ...subscription, status: "canceled", metadata: {} }, now + 20);
    await db().transaction((tx) => paymentEffect(deleted, tx));
    expect(await findUserById(db(), user.id)).toMatchObject({ subscriptionId: null, membershipStatus: "canceled" });
    // An update from before the cancellation, arriving late, changes nothing.
    const late = stripeEvent("customer.subscription.updated", { ...subscription, status: "active" }, now + 5);
    expect(await db().transaction((tx) => paymentEffect(late, tx))).toMatchObject({ effect: "ignored" });
    expect((await findUserById(db(), user.id))!.subscriptionId).toBeNull();
  });
});

describe("what payment unlocks", () => {
  test("an unpaid Chorus previews and renders but is neither delivered nor downloaded; paid, it is", async () => {
    const { user, client, event } = await organiser();
    await insertRecipient(db(), event.id, { firstName: "Bo", lastName: "", email: uniqueEmail("bo"), phone: null });
    const refused = await client.post(`/api/v2/events/${event.id}/deliver`, {});
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: "PAYMENT_REQUIRED", fields: { payment: `/e/${event.uuid}/checkout` } });

    // The page's deliver form: the same refusal, with a way to the cart, and no JavaScript needed.
    const page = await client.form(`/e/${event.uuid}`, { intent: "deliver", when: "now" });
    expect(page.status).toBe(402);
    const html = await (await client.raw("GET", `/e/${event.uuid}`)).text();
    expect(html).toContain(`href="/e/${event.uuid}/checkout"`);

    const { version } = await publishVersion(db(), {
      eventId: event.id,
      renderJobId: null,
      videoKey: `missing/${crypto.randomUUID()}.mp4`,
      posterKey: null,
      durationSeconds: 10,
      width: 1280,
      height: 720,
      sizeBytes: 1000,
      publishedById: user.id,
    });
    const link = `${signedFileUrl(`/videos/${version.id}/video`)}&download`;
    const download = await client.raw("GET", link);
    expect(download.status).toBe(402);
    expect(await download.text()).toMatch(/Pay for this Chorus/);
    await payForCartThroughWebhook(user, event);
    // Paid: the download goes through to the file (missing here, so a 404 rather than a 402).
    expect((await client.raw("GET", link)).status).toBe(404);
    expect((await client.post(`/api/v2/events/${event.id}/deliver`, {})).status).toBe(200);
  });
});

describe("reference", () => {
  test("countries from the ISO list, sorted by name or by code", async () => {
    const reply = await (await loggedInUser(server.url)).client.get("/api/v2/geo-countries?sortBy=name");
    expect(reply.status).toBe(200);
    const names = reply.body.data.map((c: { name: string }) => c.name);
    expect(names.length).toBeGreaterThan(240);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, "en")));
    expect(reply.body.data).toContainEqual({ code: "GB", name: "United Kingdom" });
    const byCode = await (await loggedInUser(server.url)).client.get("/api/v2/geo-countries?sortBy=code");
    expect(byCode.body.data[0].code).toBe("AD");
    expect((await (await loggedInUser(server.url)).client.get("/api/v2/geo-countries?sortBy=size")).status).toBe(400);
  });
});

describe("the cart page without JavaScript", () => {
  const form = (client: TestClient, event: Event, fields: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(key, v);
    return client.raw("POST", `/e/${event.uuid}/checkout`, {
      body,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  };
  const versionOn = async (client: TestClient, event: Event) =>
    (await (await client.raw("GET", `/e/${event.uuid}/checkout`)).text()).match(/name="version" value="(\d+)"/)![1]!;

  test("the organiser ticks, applies a code and picks a country by plain posts, pays on the payment page and comes back paid", async () => {
    const { client, event, user } = await organiser();
    const page = await client.raw("GET", `/e/${event.uuid}/checkout`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Your Chorus");
    expect(html).toContain("Full-quality download");
    expect(html).toContain('value="GB"');
    expect(html).toContain("Pay $5.00");

    const code = await newCode({ value: 50 });
    const applied = await form(client, event, {
      intent: "apply-promo",
      version: await versionOn(client, event),
      selected: ["premium", "originals-zip"],
      promoCode: code.code.toLowerCase(),
      billingCountry: "NL",
    });
    expect(applied.status).toBe(302);
    expect(applied.headers.get("location")).toBe(`/e/${event.uuid}/checkout`);
    const after = await (await client.raw("GET", `/e/${event.uuid}/checkout`)).text();
    // 1200 − 50 % = 600, + 21 % VAT = 126: 726.
    expect(after).toContain("Pay $7.26");
    expect(after).toContain("VAT 21 %");

    const bad = await form(client, event, { intent: "apply-promo", version: "0", promoCode: "NOT-A-CODE", billingCountry: "" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("We don&#x27;t know this code");

    // Pay with boxes changed since the total was shown: nothing is charged, the new total is shown first.
    const changed = await form(client, event, {
      intent: "pay",
      version: await versionOn(client, event),
      selected: ["premium"],
      promoCode: code.code,
      billingCountry: "NL",
    });
    expect(changed.headers.get("location")).toBe(`/e/${event.uuid}/checkout`);
    const pay = await form(client, event, {
      intent: "pay",
      version: await versionOn(client, event),
      selected: ["premium"],
      promoCode: code.code,
      billingCountry: "NL",
    });
    // Pay goes to the payment service's page (the local one: no Stripe keys here), and back.
    expect(pay.status).toBe(302);
    const checkout = new URL(pay.headers.get("location")!);
    expect(checkout.pathname).toMatch(/^\/local-payments\/checkout\/cs_/);
    const total = (await (await client.raw("GET", `/e/${event.uuid}/checkout`)).text()).match(/Pay (\$\d+\.\d\d)/)![1]!;
    expect((await (await client.raw("GET", checkout.pathname)).text()).replaceAll("<!-- -->", "")).toContain(`Pay ${total}`);
    const paid = await client.form(checkout.pathname, { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123" });
    expect(paid.status).toBe(302);
    const back = new URL(paid.headers.get("location")!);
    expect(back.pathname).toBe("/checkout/complete");
    // The webhook, not the return, marks the Chorus paid, records the invoice and mails the receipt.
    await until(async () => (await findEventById(db(), event.id))!.paid, { timeout: 20_000, what: "the webhook to mark the Chorus paid" });
    const [invoice] = await db().select().from(invoices).where(eq(invoices.eventId, event.id));
    expect(invoice).toBeDefined();
    expect(await (await client.raw("GET", `${back.pathname}${back.search}`)).text()).toContain("<h1>Paid</h1>");
    await until(async () => !!(await lastMailTo(user.email))?.subject?.includes(invoice!.number), { timeout: 20_000, what: "the receipt" });
    expect(await (await client.raw("GET", `/e/${event.uuid}/checkout`)).text()).toContain("Paid — thank you");
  });

  test("a payment page opened before the cart changed in another tab, then paid: the cart shows what was paid, and the event page says Paid", async () => {
    const { client, event } = await organiser();
    const cart = await openCart(client, event);
    const older = await client.post("/api/v2/stripe/create-checkout-session", { cartId: cart.id });
    expect(older.status).toBe(200);
    // Another tab adds to the cart: $12.00 + 20 % VAT.
    const changed = await client.put(`/api/v2/carts/${cart.id}`, { selected: ["premium", "originals-zip"], billingCountry: "GB" });
    expect(changed.body.data.totals.total).toBe(1440);

    const paid = await client.form(new URL(older.body.data.url).pathname, {
      cardNumber: "4242 4242 4242 4242",
      expiry: "12 / 40",
      cvc: "123",
    });
    expect(paid.status).toBe(302);
    await until(async () => (await findEventById(db(), event.id))!.paid, { timeout: 20_000, what: "the webhook to mark the Chorus paid" });

    const [invoice] = await db().select().from(invoices).where(eq(invoices.cartId, cart.id));
    expect(invoice).toMatchObject({ total: 500 });
    const view = (await client.get(`/api/v2/carts/${cart.id}`)).body.data;
    expect(view).toMatchObject({ status: "paid", invoiceNumber: invoice!.number, products: [{ key: "chorus", quantity: 1 }] });
    expect(view.totals).toMatchObject({ subtotal: 500, tax: 0, total: 500 });
    expect(view.lineItems.map((l: { key: string }) => l.key)).toEqual(["chorus"]);
    const cartPage = (await (await client.raw("GET", `/e/${event.uuid}/checkout`)).text()).replaceAll("<!-- -->", "");
    expect(cartPage).toContain(`Invoice ${invoice!.number}, $5.00.`);
    const eventPage = (await (await client.raw("GET", `/e/${event.uuid}`)).text()).replaceAll("<!-- -->", "");
    expect(eventPage).toContain(`<strong>Paid</strong> — invoice ${invoice!.number}, $5.00.`);
  });

  test("a code used up while it sat in the cart does not block paying: Pay takes it out and pays what the page showed", async () => {
    const code = await newCode({ value: 40, maxRedemptions: 1 });
    const { client, event } = await organiser();
    const cart = await openCart(client, event);
    expect((await client.put(`/api/v2/carts/${cart.id}`, { promoCode: code.code })).body.data.totals.total).toBe(300);
    // Someone else pays with the code's only use meanwhile.
    const other = await organiser();
    const otherCart = await openCart(other.client, other.event);
    await other.client.put(`/api/v2/carts/${otherCart.id}`, { promoCode: code.code });
    await payForCartThroughWebhook(other.user, other.event);

    const html = (await (await client.raw("GET", `/e/${event.uuid}/checkout`)).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("This code has been used as many times as it can be.");
    expect(html).toContain("Pay $5.00");
    const pay = await form(client, event, {
      intent: "pay",
      version: await versionOn(client, event),
      shownTotal: /name="shownTotal" value="(\d+)"/.exec(html)![1]!,
      promoCode: code.code,
      billingCountry: "",
    });
    expect(pay.status).toBe(302);
    const checkout = new URL(pay.headers.get("location")!);
    expect(checkout.pathname).toMatch(/^\/local-payments\/checkout\/cs_/);
    expect((await (await client.raw("GET", checkout.pathname)).text()).replaceAll("<!-- -->", "")).toContain("Pay $5.00");
    expect((await client.get(`/api/v2/carts/${cart.id}`)).body.data).toMatchObject({ promoCode: null, totals: { total: 500 } });
  });

  test("a refused code stays in the field, as it was typed, with why", async () => {
    const { client, event } = await organiser();
    const refused = await form(client, event, {
      intent: "apply-promo",
      version: await versionOn(client, event),
      promoCode: "SPRNG-2O26",
      billingCountry: "",
    });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("We don&#x27;t know this code");
    expect(html).toMatch(/id="promoCode"[^>]*value="SPRNG-2O26"/);
  });

  test("a free cart is confirmed without a payment; only the organiser opens the page", async () => {
    const { client, event } = await organiser("getwell");
    const html = await (await client.raw("GET", `/e/${event.uuid}/checkout`)).text();
    expect(html).toContain("Confirm — no payment needed");
    expect(html).toContain("Free for this occasion");
    const confirmed = await form(client, event, { intent: "confirm", version: await versionOn(client, event), billingCountry: "" });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(`/e/${event.uuid}#deliver`);
    expect((await findEventById(db(), event.id))!.paid).toBe(true);
    expect(await (await client.raw("GET", `/e/${event.uuid}/checkout`)).text()).toContain("Paid — thank you");

    const stranger = await loggedInUser(server.url);
    expect((await stranger.client.raw("GET", `/e/${event.uuid}/checkout`)).status).toBe(403);
    expect((await form(stranger.client, event, { intent: "confirm", version: "1" })).status).toBe(403);
  });
});

describe("a promo code's limit while payment pages are open", () => {
  const payForm = (client: TestClient, event: Event, fields: Record<string, string>) =>
    client.raw("POST", `/e/${event.uuid}/checkout`, {
      body: new URLSearchParams({ billingCountry: "", ...fields }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  const cartPage = async (client: TestClient, event: Event) =>
    (await (await client.raw("GET", `/e/${event.uuid}/checkout`)).text()).replaceAll("<!-- -->", "");
  const versionOf = (html: string) => /name="version" value="(\d+)"/.exec(html)![1]!;
  const payWithCard = (client: TestClient, location: string) =>
    client.form(new URL(location).pathname, { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123" });

  /** Two organisers whose carts both hold `code`, applied before any payment page opened. */
  async function twoCartsWith(code: { code: string }) {
    const buyers = [await organiser(), await organiser()];
    const carts: { id: string }[] = [];
    for (const buyer of buyers) {
      const cart = await openCart(buyer.client, buyer.event);
      const applied = await buyer.client.put(`/api/v2/carts/${cart.id}`, { promoCode: code.code });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      carts.push(applied.body.data);
    }
    const [first, second] = buyers.map((buyer, i) => ({ ...buyer, cart: carts[i]! }));
    return [first!, second!] as const;
  }

  test("a 1-use code in two carts, paid at once: it is used once; the second Pay is told why and pays the full price", async () => {
    const code = await newCode({ value: 40, maxRedemptions: 1 });
    const buyers = await twoCartsWith(code);
    const versions = await Promise.all(buyers.map(async (b) => versionOf(await cartPage(b.client, b.event))));
    // Both were shown $3.00 and press Pay at the same moment.
    const replies = await Promise.all(
      buyers.map((b, i) => payForm(b.client, b.event, { intent: "pay", version: versions[i]!, shownTotal: "300" })),
    );
    const opened = replies.map((r) => r.headers.get("location") ?? "").map((location) => location.includes("/local-payments/checkout/"));
    expect(opened.filter(Boolean)).toHaveLength(1);
    const winner = buyers[opened.indexOf(true)]!;
    const loser = buyers[opened.indexOf(false)]!;
    expect(replies[opened.indexOf(false)]!.headers.get("location")).toBe(`/e/${loser.event.uuid}/checkout`);
    const told = await cartPage(loser.client, loser.event);
    expect(told).toContain(`Code ${code.code} removed`);
    expect(told).toContain("This code&#x27;s last use is held by a payment in progress. It frees up in about 24 hours");
    expect(told).toContain("Pay $5.00");

    // Both pay: the winner what its page showed, the loser the full price it was then shown.
    expect((await payWithCard(winner.client, replies[opened.indexOf(true)]!.headers.get("location")!)).status).toBe(302);
    const second = await payForm(loser.client, loser.event, { intent: "pay", version: versionOf(told), shownTotal: "500" });
    expect(second.headers.get("location")).toContain("/local-payments/checkout/");
    expect(
      (await (await loser.client.raw("GET", new URL(second.headers.get("location")!).pathname)).text()).replaceAll("<!-- -->", ""),
    ).toContain("Pay $5.00");
    expect((await payWithCard(loser.client, second.headers.get("location")!)).status).toBe(302);
    for (const { event } of buyers)
      await until(async () => (await findEventById(db(), event.id))!.paid, {
        timeout: 20_000,
        what: "the webhook to mark the Chorus paid",
      });

    expect(await db().select().from(promoRedemptions).where(eq(promoRedemptions.promoCodeId, code.id))).toHaveLength(1);
    const totals = async (event: Event) => (await db().select().from(invoices).where(eq(invoices.eventId, event.id)))[0];
    expect(await totals(winner.event)).toMatchObject({ total: 300, promoCode: code.code });
    expect(await totals(loser.event)).toMatchObject({ total: 500, promoCode: null });
    const admin = await loggedInUser(server.url, "admin");
    const list = (await (await admin.client.raw("GET", "/admin/promo-codes")).text()).replaceAll("<!-- -->", "");
    expect(list).toMatch(new RegExp(`${code.code}</code>.*?1 / 1<`, "s"));
  });

  test("while a page holds a code's only use, another cart cannot open one with it: 409 saying when it frees up, and the code comes out", async () => {
    const code = await newCode({ value: 40, maxRedemptions: 1 });
    const [first, second] = await twoCartsWith(code);
    const held = await first.client.post("/api/v2/stripe/create-checkout-session", { cartId: first.cart.id });
    expect(held.status, JSON.stringify(held.body)).toBe(200);

    const refused = await second.client.post("/api/v2/stripe/create-checkout-session", { cartId: second.cart.id });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("PROMO_CODE_INVALID");
    expect(refused.body.error.message).toMatch(
      /held by a payment in progress\. It frees up in about 24 hours if that payment is not completed/,
    );
    expect(refused.body.error.message).toMatch(/taken out of your cart, which now comes to \$5\.00/);
    expect((await second.client.get(`/api/v2/carts/${second.cart.id}`)).body.data).toMatchObject({
      promoCode: null,
      totals: { total: 500 },
    });
    const paysInFull = await second.client.post("/api/v2/stripe/create-checkout-session", { cartId: second.cart.id });
    expect(paysInFull.status).toBe(200);

    // Pressing Pay again on the first cart reuses its page and its hold; a third cart cannot take the code at all.
    expect((await first.client.post("/api/v2/stripe/create-checkout-session", { cartId: first.cart.id })).body.data).toEqual(
      held.body.data,
    );
    const third = await organiser();
    const thirdCart = await openCart(third.client, third.event);
    const apply = await third.client.put(`/api/v2/carts/${thirdCart.id}`, { promoCode: code.code });
    expect(apply.status).toBe(400);
    expect(apply.body.error.fields.promoCode).toMatch(/last use is held by a payment in progress/);
    expect((await third.client.get(`/api/v2/promo-codes/check/${code.code}`)).body.data).toMatchObject({ applies: false, reason: "held" });
  });

  test("a free checkout cannot take a use that an open page holds", async () => {
    // The Chorus free with the code, the premium finish not: one cart pays $4.00 by card, the other is free.
    const code = await newCode({ value: 100, productKeys: ["chorus"], maxRedemptions: 1 });
    const [paying, free] = await twoCartsWith(code);
    await paying.client.put(`/api/v2/carts/${paying.cart.id}`, { selected: ["premium"] });
    expect((await paying.client.post("/api/v2/stripe/create-checkout-session", { cartId: paying.cart.id })).status).toBe(200);

    const finalized = await free.client.post(`/api/v2/carts/${free.cart.id}/finalize`);
    expect(finalized.status).toBe(409);
    expect(finalized.body.error).toMatchObject({ code: "PROMO_CODE_INVALID" });
    expect(finalized.body.error.message).toMatch(/held by a payment in progress/);
    expect((await findEventById(db(), free.event.id))!.paid).toBe(false);
    expect(await db().select().from(promoRedemptions).where(eq(promoRedemptions.promoCodeId, code.id))).toHaveLength(0);
  });
});

describe("the contributor promo code", () => {
  test("an invitee who contributed is shown one personal code, 20 % off a first Chorus, theirs by e-mail", async () => {
    const { event } = await organiser();
    const email = uniqueEmail("guest");
    const rsvp = await insertRsvp(db(), { eventId: event.id, name: "Guest", email, phone: null, viaEmail: true, viaSms: false });
    const guest = new TestClient(server.url);
    const link = `/e/${event.uuid}?invite=${inviteTokenFor(rsvp.id)}`;
    expect(await (await guest.raw("GET", link)).text()).not.toContain("THANKS-");

    await updateRsvp(db(), rsvp.id, { status: "contributed", contributedAt: new Date() });
    const shown = (await (await guest.raw("GET", link)).text()).match(/THANKS-[A-Z0-9]{8}/)?.[0];
    expect(shown).toBeTruthy();
    // The same code every time the page is opened.
    expect(await (await guest.raw("GET", link)).text()).toContain(shown);
    const [code] = await db().select().from(promoCodes).where(eq(promoCodes.rsvpId, rsvp.id));
    expect(code).toMatchObject({ code: shown, kind: "percent", value: 20, maxRedemptions: 1, firstPurchaseOnly: true, ownerEmail: email });

    // Once they have an account with that address, it is theirs to use, and no one else's.
    const owner = await createUser({ email });
    const ownerClient = new TestClient(server.url);
    await logIn(ownerClient, owner.email);
    expect((await ownerClient.get(`/api/v2/promo-codes/check/${shown}`)).body.data).toMatchObject({
      applies: true,
      description: "20 % off",
    });
    expect((await ownerClient.get(`/api/v2/promo-codes/user/${owner.id}`)).body.data.map((c: { code: string }) => c.code)).toEqual([shown]);
    const other = await loggedInUser(server.url);
    expect((await other.client.get(`/api/v2/promo-codes/check/${shown}`)).body.data).toMatchObject({ applies: false, reason: "not_yours" });
  });
});
