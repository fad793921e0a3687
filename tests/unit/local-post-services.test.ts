import { describe, expect, test } from "vitest";
import { localFulfilmentProvider, type LocalFulfilmentOrderRow } from "~/integrations/fulfilment/local.server";
import { localPrintMailProvider, type LocalMailingRow } from "~/integrations/print-mail/local.server";

// The local post services (no vendor key): their steps take seconds, but the delivery they expect is
// the one a real service would give, counted in business days from when they took the order, and
// each gives a page of the app that says where the card or parcel is.

const APP_URL = "https://chorus.test";
// Taken on Wednesday 4 March 2026; every step done by the Thursday.
const TAKEN = new Date("2026-03-04T15:30:00Z");
const LATER = () => new Date("2026-03-05T10:00:00Z");
const ADDRESS = {
  name: "Ana Silva",
  line1: "1 Main St",
  line2: null,
  city: "Springfield",
  region: "IL",
  postalCode: "62701",
  country: "US",
};

function postcards(country: string) {
  const rows = new Map<string, LocalMailingRow>();
  return localPrintMailProvider({
    appUrl: APP_URL,
    stepMs: 1000,
    newId: () => "lpc_1",
    now: LATER,
    store: {
      insertOnce: async ({ id }) => rows.get(id) ?? rows.set(id, { id, toAddress: { ...ADDRESS, country }, createdAt: TAKEN }).get(id)!,
      find: async (id) => rows.get(id) ?? null,
    },
  });
}

function parcels(kind: "dvd" | "keepsake", country: string) {
  const rows = new Map<string, LocalFulfilmentOrderRow>();
  return localFulfilmentProvider({
    name: "local",
    kind,
    appUrl: APP_URL,
    stepMs: 1000,
    newId: () => "lbook_1",
    now: LATER,
    store: {
      insertOnce: async (order) =>
        rows.get(order.id) ?? rows.set(order.id, { ...order, address: { ...order.address, country }, createdAt: TAKEN }).get(order.id)!,
      find: async (id) => rows.get(id) ?? null,
    },
  });
}

const card = { from: ADDRESS, frontUrl: "https://f", backUrl: "https://b", description: "", idempotencyKey: "k" };
const order = { externalId: "e", quantity: 1, title: "Ana", videoUrl: "https://v", artUrl: "https://a" };

describe("the local print service", () => {
  test("expects a card by USPS First-Class's business days, not when its quick steps end, and says where it is on its page", async () => {
    const made = await postcards("US").createPostcard({ ...card, to: ADDRESS });
    expect(made).toMatchObject({ status: "delivered", expectedDelivery: "2026-03-13", trackingUrl: `${APP_URL}/local-postcards/lpc_1` });
    expect((await postcards("GB").createPostcard({ ...card, to: { ...ADDRESS, country: "GB" } })).expectedDelivery).toBe("2026-03-20");
  });
});

describe("the local fulfilment services", () => {
  test("expect a parcel by the days to make it and the post's days to its country, and give their own tracking page from the start", async () => {
    const book = await parcels("keepsake", "GB").createOrder({ ...order, address: { ...ADDRESS, country: "GB" } });
    expect(book).toMatchObject({
      status: "shipped",
      trackingNumber: expect.stringMatching(/^LOCAL/),
      expectedDelivery: "2026-03-25",
      trackingUrl: `${APP_URL}/local-parcels/lbook_1`,
    });
    expect((await parcels("dvd", "US").createOrder({ ...order, address: ADDRESS })).expectedDelivery).toBe("2026-03-13");
  });
});
