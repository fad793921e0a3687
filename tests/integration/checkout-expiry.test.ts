import crypto from "node:crypto";
import { giftContributions, gifts, paymentEvents, postcards, promoCodeHolds, treeContributions } from "drizzle/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { insertRecipient } from "~/models/event.server";
import { insertPromoCode } from "~/models/promo-code.server";
import type { RunningServer } from "../../server";
import { loggedInUser, uniqueEmail } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// Payment pages that expire unpaid, with the local payment service: its sessions expire at their
// expires_at (CHECKOUT_EXPIRY_SECONDS, short here) with no one looking, and Stripe's
// checkout.session.expired comes through the signed webhook to let go of what the page held.

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5", CHECKOUT_EXPIRY_SECONDS: "2" });
});
afterAll(() => server.close());

const ADDRESS = { name: "Ada Lovelace", line1: "350 Fifth Avenue", city: "New York", region: "NY", postalCode: "10118", country: "US" };
const sessionOf = (url: string) => new URL(url).pathname.split("/").at(-1)!;
const expiredEventOf = async (sessionId: string) =>
  (
    await db()
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.objectId, sessionId), eq(paymentEvents.type, "checkout.session.expired")))
  )[0];

describe("a payment page nobody pays", () => {
  test("expires on its own: the postcard it locked is a draft again, and its pages say the payment expired", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createTestEvent(user);
    const id = (await client.post("/api/v2/postcards", { eventId: event.id, templateId: "meadow", address: ADDRESS })).body.data.id;
    const checkout = await client.post(`/api/v2/postcards/${id}/checkout`, {});
    expect(checkout.status).toBe(200);
    const sessionId = sessionOf(checkout.body.data.url);

    const card = await until(
      async () => {
        const [row] = await db().select().from(postcards).where(eq(postcards.id, id));
        return row?.status === "draft" && row;
      },
      { timeout: 20_000, what: "the payment page to expire and its webhook to unlock the card" },
    );
    expect(card).toMatchObject({ checkoutAttempts: 1, checkoutSessionId: sessionId });
    expect(await expiredEventOf(sessionId)).toMatchObject({ processedAt: expect.any(Date) });

    const paymentPage = await client.raw("GET", new URL(checkout.body.data.url).pathname);
    expect(await paymentPage.text()).toContain("expired");
    const returned = await client.get(`/api/stripe/retrieve-session?session_id=${sessionId}`);
    expect(returned.body.data).toMatchObject({ state: "expired" });
    // Paying on the expired page is refused; nothing is charged.
    const late = await client.form(new URL(checkout.body.data.url).pathname, {
      cardNumber: "4242 4242 4242 4242",
      expiry: "12 / 40",
      cvc: "123",
    });
    expect(await late.text()).toContain("This payment page has expired");
    const page = await (await client.raw("GET", `/e/${event.uuid}/postcards/${id}`)).text();
    expect(page).toContain("the payment page expired");
  });

  test("gift card contributions and trees started and never paid for are marked abandoned", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createTestEvent(user);
    await insertRecipient(db(), event.id, { firstName: "Ana", lastName: "Silva", email: uniqueEmail("ana"), phone: null });
    await client.form(`/e/${event.uuid}`, { intent: "gift", country: "US", productId: "LOCAL-BOOKS-USD", target: "" });
    const [gift] = await db().select().from(gifts).where(eq(gifts.eventId, event.id));
    const payer = new TestClient(server.url);
    const chippedIn = await payer.post("/api/v2/tremendous/contributions", {
      eventUuid: event.uuid,
      name: "Friend",
      email: uniqueEmail("g"),
      amount: "25.00",
    });
    expect(chippedIn.status).toBe(200);
    const started = await payer.post("/api/v2/tree/contributions", {
      eventUuid: event.uuid,
      name: "Friend",
      email: uniqueEmail("f"),
      quantity: 3,
    });
    expect(started.status).toBe(200);
    await until(
      async () => {
        const [row] = await db().select().from(treeContributions).where(eq(treeContributions.id, started.body.data.id));
        return row?.status === "abandoned";
      },
      { timeout: 20_000, what: "the unpaid trees to be marked abandoned" },
    );
    await until(
      async () => {
        const [row] = await db().select().from(giftContributions).where(eq(giftContributions.giftId, gift!.id));
        return row?.status === "abandoned";
      },
      { timeout: 20_000, what: "the unpaid contribution to be marked abandoned" },
    );
  });

  test("a cart's page lets go of the promo code's use it held: the cart that was refused it can then pay with it", async () => {
    const code = await insertPromoCode(db(), {
      code: `HELD-${crypto.randomBytes(4).toString("hex").toUpperCase()}`,
      kind: "percent",
      value: 40,
      maxRedemptions: 1,
    });
    const buyers = [await loggedInUser(server.url), await loggedInUser(server.url)];
    const carts: string[] = [];
    for (const { user, client } of buyers) {
      const event = await createTestEvent(user);
      const cart = (await client.post("/api/v2/carts", { eventId: event.id })).body.data;
      expect((await client.put(`/api/v2/carts/${cart.id}`, { promoCode: code.code })).status).toBe(200);
      carts.push(cart.id);
    }
    const [first, second] = buyers as [(typeof buyers)[0], (typeof buyers)[0]];
    const opened = await first.client.post("/api/v2/stripe/create-checkout-session", { cartId: carts[0] });
    expect(opened.status).toBe(200);
    const sessionId = sessionOf(opened.body.data.url);

    await until(async () => (await expiredEventOf(sessionId))?.processedAt, {
      timeout: 20_000,
      what: "the payment page to expire and its webhook to let go of the code",
    });
    expect(await db().select().from(promoCodeHolds).where(eq(promoCodeHolds.checkoutSessionId, sessionId))).toHaveLength(0);
    const after = await second.client.post("/api/v2/stripe/create-checkout-session", { cartId: carts[1] });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect((await (await second.client.raw("GET", new URL(after.body.data.url).pathname)).text()).replaceAll("<!-- -->", "")).toContain(
      "Pay $3.00",
    );
  });
});
