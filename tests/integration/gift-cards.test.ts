import { gifts } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import type { RunningServer } from "../../server";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

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
