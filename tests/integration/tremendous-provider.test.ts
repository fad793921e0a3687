import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GiftCardServiceError } from "~/integrations/gift-cards/gift-cards-port";
import { tremendousProvider } from "~/integrations/gift-cards/tremendous.server";
import { startTremendousStandIn, type TremendousStandIn } from "../support/tremendous-stand-in";

// The Tremendous provider through the official SDK, pointed at a stand-in of Tremendous's API.

let standIn: TremendousStandIn;
const provider = () =>
  tremendousProvider({ apiKey: "TEST_stand_in_key", baseUrl: standIn.url, fundingSourceId: "balance", timeoutMs: 2000 });

beforeAll(async () => {
  standIn = await startTremendousStandIn();
});
afterAll(async () => {
  await standIn?.close();
});

const order = (externalId: string) => ({
  productId: "OKMHM2X2OHYV",
  amount: 4550,
  currency: "USD",
  recipient: { name: "Ada Lovelace", email: "ada@example.test" },
  externalId,
});

describe("the Tremendous gift-card provider", () => {
  test("lists a country's products with their limits in minor units, sending the API key", async () => {
    const products = await provider().listProducts("US");

    expect(products.map((p) => p.name)).toEqual(["Amazon.com", "Donation to Red Cross"]);
    expect(products[0]).toMatchObject({
      id: "OKMHM2X2OHYV",
      currency: "USD",
      minAmount: 500,
      maxAmount: 200_000,
      imageUrl: "https://images.tremendous.test/amazon.png",
    });
    const request = standIn.requests.at(-1)!;
    expect(request.query.get("country")).toBe("US");
    expect(request.authorization).toBe("Bearer TEST_stand_in_key");
  });

  test("finds one product, and answers null for a product Tremendous does not have", async () => {
    expect(await provider().getProduct("ET0ZVETV5ILN")).toMatchObject({
      name: "Argos",
      currency: "GBP",
      minAmount: 1000,
      maxAmount: 25_000,
    });
    expect(await provider().getProduct("NO-SUCH-PRODUCT")).toBeNull();
  });

  test("orders a card as a link, in major units, paid from the funding source, keyed by the external id", async () => {
    const made = await provider().createOrder(order("gift-1"));

    expect(made).toMatchObject({ externalId: "gift-1", status: "delivered", claimUrl: `https://reward.tremendous.test/${made.id}` });
    const body = standIn.requests.at(-1)!.body!;
    expect(body).toMatchObject({
      external_id: "gift-1",
      payment: { funding_source_id: "balance" },
      reward: { products: ["OKMHM2X2OHYV"], value: { denomination: 45.5, currency_code: "USD" }, delivery: { method: "LINK" } },
    });
  });

  test("ordering again with the same external id gives the first order, not a second card", async () => {
    const first = await provider().createOrder(order("gift-2"));
    const again = await provider().createOrder(order("gift-2"));

    expect(again.id).toBe(first.id);
    expect([...standIn.orders.values()].filter((o) => o.external_id === "gift-2")).toHaveLength(1);
  });

  test("reads an order's state: a failed reward is failed, an unknown order is null", async () => {
    const made = await provider().createOrder(order("gift-3"));
    standIn.orders.set(made.id, { ...standIn.orders.get(made.id)!, status: "FAILED" });

    expect((await provider().getOrder(made.id))?.status).toBe("failed");
    expect(await provider().getOrder("NO-SUCH-ORDER")).toBeNull();
  });

  test("a failure on Tremendous's side is a retryable service error", async () => {
    standIn.failNext();

    const error = await provider()
      .createOrder(order("gift-4"))
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(GiftCardServiceError);
    expect((error as GiftCardServiceError).retryable).toBe(true);
  });
});
