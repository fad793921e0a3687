import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningServer } from "../../server";
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
