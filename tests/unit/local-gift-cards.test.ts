import { describe, expect, test } from "vitest";
import { GiftCardServiceError, type GiftCardOrderInput } from "~/integrations/gift-cards/gift-cards-port";
import { localGiftCardProvider, type LocalGiftCardOrderRow } from "~/integrations/gift-cards/local.server";

function provider(clock: { now: Date }) {
  const rows = new Map<string, LocalGiftCardOrderRow>();
  let next = 0;
  return localGiftCardProvider({
    appUrl: "http://localhost:3000",
    deliverAfterMs: 5000,
    newId: () => `lgc_${++next}`,
    now: () => clock.now,
    store: {
      async insertOnce({ id, externalId }) {
        const existing = [...rows.values()].find((r) => r.externalId === externalId);
        if (existing) return existing;
        const row = { id, externalId, createdAt: clock.now };
        rows.set(id, row);
        return row;
      },
      find: async (id) => rows.get(id) ?? null,
    },
  });
}

const order = (fields: Partial<GiftCardOrderInput> = {}): GiftCardOrderInput => ({
  productId: "LOCAL-BOOKS-USD",
  amount: 5000,
  currency: "USD",
  recipient: { name: "Ada", email: "ada@example.test" },
  externalId: "gift-1",
  ...fields,
});

describe("the local gift-card vendor", () => {
  test("lists only the brands of the recipient's country, whatever the case of its code", async () => {
    const products = await provider({ now: new Date() }).listProducts("ca");
    expect(products.map((p) => p.id)).toEqual(["LOCAL-OUTDOOR-CAD"]);
    expect(products[0]).toMatchObject({ currency: "CAD", minAmount: 1000, maxAmount: 100_000 });
  });

  test("an order is received, then delivered with a claim link in the app", async () => {
    const clock = { now: new Date("2026-01-01T00:00:00Z") };
    const vendor = provider(clock);

    const made = await vendor.createOrder(order());
    expect(made).toMatchObject({ status: "received", claimUrl: null });

    clock.now = new Date("2026-01-01T00:00:05Z");
    expect(await vendor.getOrder(made.id)).toMatchObject({
      status: "delivered",
      claimUrl: `http://localhost:3000/local-gift-cards/${made.id}`,
    });
  });

  test("the same external id gives the same order", async () => {
    const vendor = provider({ now: new Date() });
    const first = await vendor.createOrder(order());
    expect((await vendor.createOrder(order())).id).toBe(first.id);
  });

  test("refuses an amount outside the brand's limits, or a brand it does not sell, for good", async () => {
    const vendor = provider({ now: new Date() });
    for (const wrong of [order({ amount: 499 }), order({ amount: 50_001 }), order({ productId: "NOPE" }), order({ currency: "EUR" })]) {
      const error = await vendor.createOrder(wrong).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GiftCardServiceError);
      expect((error as GiftCardServiceError).retryable).toBe(false);
    }
  });
});
