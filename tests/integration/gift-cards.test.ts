import { giftContributions, gifts, localGiftCardOrders, localPaymentObjects } from "drizzle/schema";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { insertRecipient, updateEvent } from "~/models/event.server";
import { payOutGift } from "~/services/gift-cards/payout.server";
import type { RunningServer } from "../../server";
import { loggedInUser, mailsTo, uniqueEmail } from "../support/accounts";
import { createPaidTestEvent, createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// Group gift cards with the local gift-card vendor (no TREMENDOUS_API_KEY): the catalogue, the
// organiser's gift, contributions paid through the local payment service and its webhook.

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5", LOCAL_GIFT_CARD_DELIVERY_SECONDS: "0" });
});
afterAll(() => server.close());

describe("the gift-card catalogue", () => {
  test("lists the brands a recipient in a country can redeem, with their limits and currency", async () => {
    const reply = await new TestClient(server.url).get("/api/v2/tremendous/products?country=gb");

    expect(reply.status).toBe(200);
    expect(reply.body.data.map((p: { name: string }) => p.name)).toEqual(["High Street Books", "Supper Club"]);
    expect(reply.body.data[0]).toMatchObject({ id: "LOCAL-BOOKS-GBP", currency: "GBP", minAmount: 500, maxAmount: 50_000 });
  });

  test("a country we do not know, or none, is a 400 naming the field", async () => {
    const client = new TestClient(server.url);
    for (const path of ["/api/v2/tremendous/products?country=ZZ", "/api/v2/tremendous/products"]) {
      const reply = await client.get(path);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ success: false, error: { code: "VALIDATION_FAILED", fields: { country: expect.any(String) } } });
    }
  });

  test("a country with no brands is an empty list", async () => {
    const reply = await new TestClient(server.url).get("/api/v2/tremendous/products?country=JP");
    expect(reply.body.data).toEqual([]);
  });
});

async function organiser() {
  const { user, client } = await loggedInUser(server.url);
  const event = await createTestEvent(user);
  return { user, client, event };
}

const giftOf = async (eventId: string) => (await db().select().from(gifts).where(eq(gifts.eventId, eventId)))[0];

describe("the organiser's gift, without JavaScript", () => {
  test("picks the recipient's country, then a brand from its catalogue with a target", async () => {
    const { client, event } = await organiser();

    const page = await (await client.raw("GET", `/e/${event.uuid}?giftCountry=GB`)).text();
    expect(page).toContain("Group gift card");
    expect(page).toContain("High Street Books");
    expect(page).not.toContain("Corner Bookshop");

    const saved = await client.form(`/e/${event.uuid}?giftCountry=GB`, {
      intent: "gift",
      country: "GB",
      productId: "LOCAL-BOOKS-GBP",
      target: "120",
    });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("The gift is on: a High Street Books card, aiming for £120.00.");
    expect(await giftOf(event.id)).toMatchObject({
      country: "GB",
      productName: "High Street Books",
      currency: "GBP",
      targetAmount: 12_000,
      status: "collecting",
    });

    const shown = await (await client.raw("GET", `/e/${event.uuid}`)).text();
    expect(shown).toMatch(/£0\.00<\/strong>.*from.*0.*people.*of a £120\.00 target/s);
  });

  test("a brand not sold in the country, or a target outside the card's limits, is refused with the field named", async () => {
    const { client, event } = await organiser();

    const wrongBrand = await client.form(`/e/${event.uuid}`, { intent: "gift", country: "GB", productId: "LOCAL-BOOKS-USD", target: "" });
    expect(wrongBrand.status).toBe(400);
    expect(await wrongBrand.text()).toContain("Choose a gift card sold in the recipient");
    const tooMuch = await client.form(`/e/${event.uuid}`, { intent: "gift", country: "GB", productId: "LOCAL-BOOKS-GBP", target: "9000" });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.text()).toContain("Choose a target between the card");
    expect(await giftOf(event.id)).toBeUndefined();
  });

  test("the organiser turns the gift off while no one has chipped in; no one else can turn it on", async () => {
    const { client, event } = await organiser();
    await client.form(`/e/${event.uuid}`, { intent: "gift", country: "US", productId: "LOCAL-COFFEE-USD", target: "" });
    expect(await giftOf(event.id)).toBeTruthy();

    const off = await client.form(`/e/${event.uuid}`, { intent: "gift-off" });
    expect(await off.text()).toContain("The gift is off.");
    expect(await giftOf(event.id)).toBeUndefined();

    const stranger = (await loggedInUser(server.url)).client;
    const refused = await stranger.form(`/e/${event.uuid}`, { intent: "gift", country: "US", productId: "LOCAL-COFFEE-USD", target: "" });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await giftOf(event.id)).toBeUndefined();
  });
});

/** An organiser's Chorus with a gift card on (US coffee card: $5 to $100). */
async function chorusWithGift(target = "") {
  const { client, event } = await organiser();
  const on = await client.form(`/e/${event.uuid}`, { intent: "gift", country: "US", productId: "LOCAL-COFFEE-USD", target });
  expect(on.status).toBe(200);
  return { organiserClient: client, event, gift: (await giftOf(event.id))! };
}

const contributionsOf = (giftId: string) => db().select().from(giftContributions).where(eq(giftContributions.giftId, giftId));

/** Pays on the local payment service's page with the test card, as a person without JavaScript. */
async function payWithTestCard(client: TestClient, checkoutUrl: string) {
  const path = new URL(checkoutUrl).pathname;
  expect(path).toMatch(/^\/local-payments\/checkout\//);
  const paid = await client.form(path, { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123" });
  expect(paid.status).toBe(302);
}

describe("contributors chip in", () => {
  test("from the event page without JavaScript: the chip-in form opens the payment page; the webhook records it in the pot", async () => {
    const { event, gift } = await chorusWithGift("50");
    const contributor = new TestClient(server.url);

    const eventPage = await (await contributor.raw("GET", `/e/${event.uuid}`)).text();
    expect(eventPage).toContain("Chip in for the gift card");
    expect(eventPage).toContain(`/e/${event.uuid}/gift`);
    const form = await contributor.raw("GET", `/e/${event.uuid}/gift`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("Chip in for a Morning Roast gift card");

    const sent = await contributor.form(`/e/${event.uuid}/gift`, { name: "Bea", email: "bea@example.test", amount: "12.50" });
    expect(sent.status).toBe(302);
    const [pending] = await contributionsOf(gift.id);
    expect(pending).toMatchObject({ name: "Bea", amount: 1250, currency: "USD", status: "pending", provider: "local" });

    await payWithTestCard(contributor, sent.headers.get("location")!);
    await until(async () => (await contributionsOf(gift.id))[0]?.status === "paid", {
      timeout: 20_000,
      what: "the webhook to record the contribution",
    });
    const [paid] = await contributionsOf(gift.id);
    expect(paid!.paymentIntentId).toBeTruthy();

    const after = await (await contributor.raw("GET", `/e/${event.uuid}`)).text();
    expect(after).toMatch(/\$12\.50<\/strong>.*from.*1.*person.*of a \$50\.00 target/s);
  });

  test("POST /api/v2/tremendous/contributions starts one and answers the payment page", async () => {
    const { event, gift } = await chorusWithGift();
    const reply = await new TestClient(server.url).post("/api/v2/tremendous/contributions", {
      eventUuid: event.uuid,
      name: "Cy",
      email: "cy@example.test",
      amount: 20,
    });

    expect(reply.status).toBe(200);
    expect(reply.body.data.url).toContain("/local-payments/checkout/");
    expect(await contributionsOf(gift.id)).toMatchObject([{ id: reply.body.data.id, amount: 2000, status: "pending" }]);
  });

  test("an amount outside the card's limits, or past what still fits on it, is refused with the field named", async () => {
    const { event } = await chorusWithGift();
    const client = new TestClient(server.url);
    const ask = (amount: string) =>
      client.post("/api/v2/tremendous/contributions", { eventUuid: event.uuid, name: "Di", email: "di@example.test", amount });

    const tooLittle = await ask("4.99");
    expect(tooLittle.status).toBe(400);
    expect(tooLittle.body.error.fields.amount).toBe("Chip in at least $5.00.");
    const tooMuch = await ask("100.01");
    expect(tooMuch.body.error.fields.amount).toBe("At most $100.00 more fits on this card.");
    const notMoney = await ask("lots");
    expect(notMoney.status).toBe(400);
  });

  test("a Chorus with no gift has nothing to chip into (404), and the recipient's own page offers no chip-in", async () => {
    const { event } = await organiser();
    const reply = await new TestClient(server.url).post("/api/v2/tremendous/contributions", {
      eventUuid: event.uuid,
      name: "Ed",
      email: "ed@example.test",
      amount: "10",
    });
    expect(reply.status).toBe(404);
    expect(reply.body.success).toBe(false);
    expect((await new TestClient(server.url).raw("GET", `/e/${event.uuid}/gift`)).status).toBe(404);
  });
});

describe("the card's room while payment pages are open", () => {
  /** A Chorus with a $5 to $500 card on (Corner Bookshop, US). */
  async function chorusWithBigCard() {
    const { client, event } = await organiser();
    expect(
      (await client.form(`/e/${event.uuid}`, { intent: "gift", country: "US", productId: "LOCAL-BOOKS-USD", target: "" })).status,
    ).toBe(200);
    return { event, gift: (await giftOf(event.id))! };
  }
  const chipIn = (client: TestClient, eventUuid: string, amount: string) =>
    client.post("/api/v2/tremendous/contributions", { eventUuid, name: "Friend", email: uniqueEmail("friend"), amount });
  const potOf = async (giftId: string) =>
    (await contributionsOf(giftId)).filter((c) => c.status === "paid").reduce((sum, c) => sum + c.amount - c.amountRefunded, 0);

  test("$500 and $25 opened at once on a $500 card: one page opens, the other is told why; what opened is paid, and the pot stays within $500", async () => {
    const { event, gift } = await chorusWithBigCard();
    const [big, small] = [new TestClient(server.url), new TestClient(server.url)];
    const [bigReply, smallReply] = await Promise.all([chipIn(big, event.uuid, "500"), chipIn(small, event.uuid, "25")]);
    expect([bigReply.status, smallReply.status].sort()).toEqual([200, 400]);
    if (bigReply.status === 200) {
      expect(smallReply.body.error.fields.amount).toMatch(
        /^The rest of this card \(\$500\.00\) is held by a payment in progress: it is free again in about 24 hours if that payment is not completed\.$/,
      );
      await payWithTestCard(big, bigReply.body.data.url);
    } else {
      expect(bigReply.body.error.fields.amount).toMatch(
        /^At most \$475\.00 more fits on this card now: another \$25\.00 is held by a payment in progress, and is free again in about 24 hours if it is not completed\.$/,
      );
      await payWithTestCard(small, smallReply.body.data.url);
      // The $500 contributor chips in what fits instead, and pays too.
      const fits = await chipIn(big, event.uuid, "475");
      expect(fits.status).toBe(200);
      await payWithTestCard(big, fits.body.data.url);
    }
    await until(async () => (await contributionsOf(gift.id)).filter((c) => c.status === "pending").length === 0, {
      timeout: 20_000,
      what: "the webhook to record what was paid",
    });
    expect(await potOf(gift.id)).toBe(50_000);
    // Full: the next one is told so.
    expect((await chipIn(new TestClient(server.url), event.uuid, "5")).body.error.fields.amount).toBe("This card is full.");
    expect(await (await new TestClient(server.url).raw("GET", `/e/${event.uuid}/gift`)).text()).toContain(
      "There is no room left on the card for now.",
    );
  });

  test("the chip-in page says how much room is left and how much is held by payments in progress", async () => {
    const { event } = await chorusWithBigCard();
    expect((await chipIn(new TestClient(server.url), event.uuid, "120")).status).toBe(200);
    const page = (await (await new TestClient(server.url).raw("GET", `/e/${event.uuid}/gift`)).text()).replaceAll("<!-- -->", "");
    expect(page).toContain("Between $5.00 and $380.00.");
    expect(page).toContain("$120.00 more is held by payments in progress, and is free again if they are not completed.");
  });

  test("money that lands beyond the room is refunded at once, the part that does not fit, with a mail; the pot stays at $500 and balances", async () => {
    const { event, gift } = await chorusWithBigCard();
    // A page whose hold lapsed (its expiry long past) while its payment was still on its way.
    const lateEmail = uniqueEmail("late");
    const late = new TestClient(server.url);
    const lateStart = await late.post("/api/v2/tremendous/contributions", {
      eventUuid: event.uuid,
      name: "Late",
      email: lateEmail,
      amount: "60",
    });
    expect(lateStart.status).toBe(200);
    await db()
      .update(giftContributions)
      .set({ holdsUntil: new Date(Date.now() - 2 * 3_600_000) })
      .where(eq(giftContributions.id, lateStart.body.data.id));
    const other = new TestClient(server.url);
    const filled = await chipIn(other, event.uuid, "460");
    expect(filled.status).toBe(200);
    await payWithTestCard(other, filled.body.data.url);
    await until(async () => (await potOf(gift.id)) === 46_000, { timeout: 20_000, what: "the $460 to be recorded" });

    await payWithTestCard(late, lateStart.body.data.url);
    await until(async () => (await contributionsOf(gift.id)).find((c) => c.id === lateStart.body.data.id)?.status === "paid", {
      timeout: 20_000,
      what: "the late $60 to be recorded",
    });
    expect(await potOf(gift.id)).toBe(50_000);
    const contributions = await contributionsOf(gift.id);
    expect(contributions.find((c) => c.id === lateStart.body.data.id)).toMatchObject({ amount: 6000, amountRefunded: 2000 });
    await expect
      .poll(async () => {
        const refunds = await db()
          .select()
          .from(localPaymentObjects)
          .where(
            and(
              eq(localPaymentObjects.object, "refund"),
              sql`${localPaymentObjects.data}->'metadata'->>'giftContributionId' = ${lateStart.body.data.id}`,
            ),
          );
        return refunds.map((r) => (r.data as { amount: number }).amount);
      })
      .toEqual([2000]);
    // Its receipt and the refund's mail, in whichever order their jobs send them.
    await expect
      .poll(async () => (await mailsTo(lateEmail)).map((mail) => mail.subject))
      .toEqual(
        expect.arrayContaining(["Your Chorus receipt: $60.00 for a gift card", "$20.00 of your $60.00 for a gift card is refunded"]),
      );
    const paidIn = contributions.reduce((sum, c) => sum + (c.status === "pending" ? 0 : c.amount), 0);
    const refunded = contributions.reduce((sum, c) => sum + c.amountRefunded, 0);
    expect(paidIn).toBe((await potOf(gift.id)) + refunded);
  });
});

/** A paid Chorus with a recipient to deliver to, a gift on, and `amounts` paid into it through the webhook. */
async function chorusWithPaidPot(amounts: string[]) {
  const { user, client } = await loggedInUser(server.url);
  const event = await createPaidTestEvent(user);
  await insertRecipient(db(), event.id, { firstName: "Ana", lastName: "Silva", email: uniqueEmail("ana"), phone: null });
  await client.form(`/e/${event.uuid}`, { intent: "gift", country: "US", productId: "LOCAL-BOOKS-USD", target: "" });
  const gift = (await giftOf(event.id))!;
  const emails: string[] = [];
  for (const amount of amounts) {
    const payer = new TestClient(server.url);
    const email = uniqueEmail("friend");
    emails.push(email);
    const started = await payer.post("/api/v2/tremendous/contributions", { eventUuid: event.uuid, name: "Friend", email, amount });
    await payWithTestCard(payer, started.body.data.url);
  }
  await until(async () => (await contributionsOf(gift.id)).every((c) => c.status === "paid"), {
    timeout: 20_000,
    what: "the webhook to record every contribution",
  });
  return { client, event, gift, emails };
}

describe("payout at delivery", () => {
  test("delivering the Chorus orders the pot as one card; the recipient's page links to it; paid in = paid out", async () => {
    const { client, event, gift } = await chorusWithPaidPot(["20", "15.50"]);

    expect((await client.post(`/api/v2/events/${event.id}/deliver`, {})).status).toBe(200);
    await until(async () => (await giftOf(event.id))?.status === "delivered", { timeout: 20_000, what: "the gift card to be ordered" });

    const delivered = (await giftOf(event.id))!;
    const paidIn = (await contributionsOf(gift.id)).reduce((sum, c) => sum + c.amount - c.amountRefunded, 0);
    expect(delivered.amountPaidOut).toBe(3550);
    expect(paidIn).toBe(delivered.amountPaidOut);
    const orders = await db()
      .select()
      .from(localGiftCardOrders)
      .where(eq(localGiftCardOrders.externalId, `chorus-gift:${gift.id}`));
    expect(orders).toMatchObject([
      { amount: 3550, currency: "USD", productId: "LOCAL-BOOKS-USD", recipientName: expect.stringMatching(/^Ana Silva/) },
    ]);

    const recipientPage = await (await new TestClient(server.url).raw("GET", `/e/${event.uuid}?privateKey=${event.privateKey}`)).text();
    expect(recipientPage).toContain("$35.50 at Corner Bookshop, from everyone who chipped in.");
    expect(recipientPage).toContain(`/local-gift-cards/${orders[0]!.id}`);
    const claim = await new TestClient(server.url).raw("GET", `/local-gift-cards/${orders[0]!.id}`);
    expect(claim.status).toBe(200);
    expect(await claim.text()).toMatch(/Card code: <strong>[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}<\/strong>/);
    // Ordered: the gift takes no more contributions.
    const late = await new TestClient(server.url).post("/api/v2/tremendous/contributions", {
      eventUuid: event.uuid,
      name: "Late",
      email: "late@example.test",
      amount: "5",
    });
    expect(late.status).toBe(404);
  });

  test("the organiser can send it only once the Chorus is delivered; two payout runs at once order one card", async () => {
    const { client, event, gift } = await chorusWithPaidPot(["10"]);

    const early = await client.post("/api/v2/tremendous/orders", { eventId: event.id });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("NOT_DUE");

    // As if the worker died after ordering: the runs that follow find the same order by the gift's key.
    await updateEvent(db(), event.id, { deliveredAt: new Date(), status: "delivered" });
    await Promise.all([payOutGift(gift.id, { finalAttempt: true }), payOutGift(gift.id, { finalAttempt: true })]);
    expect((await client.post("/api/v2/tremendous/orders", { eventId: event.id })).status).toBe(200);
    await payOutGift(gift.id, { finalAttempt: true });

    expect(await giftOf(event.id)).toMatchObject({ status: "delivered", amountPaidOut: 1000 });
    expect(
      await db()
        .select()
        .from(localGiftCardOrders)
        .where(eq(localGiftCardOrders.externalId, `chorus-gift:${gift.id}`)),
    ).toHaveLength(1);
  });
});

describe("refunds", () => {
  test("money that arrives after the card was ordered is refunded in full and its contributor told; paid in = paid out + refunded", async () => {
    const { client, event, gift } = await chorusWithPaidPot(["10"]);
    // A checkout left open across the delivery.
    const lateEmail = uniqueEmail("late");
    const late = new TestClient(server.url);
    const started = await late.post("/api/v2/tremendous/contributions", {
      eventUuid: event.uuid,
      name: "Late",
      email: lateEmail,
      amount: "6",
    });
    expect(started.status).toBe(200);
    expect((await client.post(`/api/v2/events/${event.id}/deliver`, {})).status).toBe(200);
    await until(async () => (await giftOf(event.id))?.status === "delivered", { timeout: 20_000, what: "the gift card to be ordered" });

    await payWithTestCard(late, started.body.data.url);

    await until(async () => (await contributionsOf(gift.id)).find((c) => c.id === started.body.data.id)?.status === "refunded", {
      timeout: 20_000,
      what: "the late contribution to be refunded",
    });
    const contributions = await contributionsOf(gift.id);
    const paidIn = contributions.reduce((sum, c) => sum + c.amount, 0);
    const refunded = contributions.reduce((sum, c) => sum + c.amountRefunded, 0);
    expect({ paidIn, refunded }).toEqual({ paidIn: 1600, refunded: 600 });
    expect(await giftOf(event.id)).toMatchObject({ status: "delivered", amountPaidOut: 1000 });
    expect(paidIn).toBe((await giftOf(event.id))!.amountPaidOut + refunded);
    const refund = await db()
      .select()
      .from(localPaymentObjects)
      .where(
        and(
          eq(localPaymentObjects.object, "refund"),
          sql`${localPaymentObjects.data}->'metadata'->>'giftContributionId' = ${started.body.data.id}`,
        ),
      );
    expect(refund.map((r) => (r.data as { amount: number }).amount)).toEqual([600]);
    // Beside its receipt, sent by a job of its own in either order.
    await expect
      .poll(async () => (await mailsTo(lateEmail)).map((mail) => mail.text), { timeout: 15_000 })
      .toEqual(expect.arrayContaining([expect.stringContaining("it arrived after the card had been sent")]));
  });

  test("a vendor that refuses the order for good fails the gift, saying so, and every contribution goes back", async () => {
    const { event, gift, emails } = await chorusWithPaidPot(["10"]);
    await db().update(gifts).set({ productId: "LOCAL-NO-LONGER-SOLD" }).where(eq(gifts.id, gift.id));

    await payOutGift(gift.id, { finalAttempt: false });

    expect((await giftOf(event.id))?.failure).toContain("The card was not sent.");
    await until(async () => (await giftOf(event.id))?.status === "refunded", { timeout: 20_000, what: "the contributions to be refunded" });
    const [contribution] = await contributionsOf(gift.id);
    expect(contribution).toMatchObject({ status: "refunded", amountRefunded: 1000 });
    // The refund notice is a job of its own, queued with the refund: it may leave just after, or
    // before the payment's receipt.
    await expect
      .poll(async () => (await mailsTo(emails[0]!)).map((mail) => mail.subject))
      .toEqual(expect.arrayContaining(["Your $10.00 for a gift card is refunded"]));
  });

  test("deleting the Chorus refunds every contribution and tells each contributor; paid in = paid out + refunded", async () => {
    const { client, event, gift, emails } = await chorusWithPaidPot(["10", "7.25"]);

    const deleted = await client.form(`/e/${event.uuid}`, { intent: "delete" });
    expect(deleted.status).toBe(302);

    await until(async () => (await contributionsOf(gift.id)).every((c) => c.status === "refunded"), {
      timeout: 20_000,
      what: "every refund",
    });
    const contributions = await contributionsOf(gift.id);
    const paidIn = contributions.reduce((sum, c) => sum + c.amount, 0);
    const refunded = contributions.reduce((sum, c) => sum + c.amountRefunded, 0);
    expect(paidIn).toBe(1725);
    expect(paidIn).toBe((await giftOf(event.id))!.amountPaidOut + refunded);
    expect((await giftOf(event.id))?.status).toBe("refunded");
    for (const email of emails)
      await expect
        .poll(async () => (await mailsTo(email)).map((mail) => mail.subject), { timeout: 15_000 })
        .toEqual(expect.arrayContaining([expect.stringMatching(/is refunded$/)]));
  });
});
