import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acutrackProvider } from "~/integrations/fulfilment/acutrack.server";
import { FulfilmentServiceError, type FulfilmentOrderInput } from "~/integrations/fulfilment/fulfilment-port";
import { heirloomProvider } from "~/integrations/fulfilment/heirloom.server";
import { ACUTRACK_ESTIMATE, HEIRLOOM_ESTIMATE, startFulfilmentStandIn, type FulfilmentStandIn } from "../support/fulfilment-stand-in";

// The disc service's and the book printer's adapters over plain HTTP, pointed at a stand-in of each API.

let standIn: FulfilmentStandIn;
beforeAll(async () => {
  standIn = await startFulfilmentStandIn();
});
afterAll(async () => {
  await standIn?.close();
});

const providers = () => ({
  acutrack: acutrackProvider({ apiKey: "acu_test_key", baseUrl: standIn.acutrackUrl, timeoutMs: 5000 }),
  heirloom: heirloomProvider({ apiKey: "hl_test_key", baseUrl: standIn.heirloomUrl, timeoutMs: 5000 }),
});

const input = (externalId: string): FulfilmentOrderInput => ({
  externalId,
  quantity: 3,
  title: "Ana's 40th",
  videoUrl: "https://chorus.test/mail-orders/1/t/video.mp4",
  artUrl: "https://chorus.test/mail-orders/1/t/label.pdf",
  address: { name: "Ana Silva", line1: "1 Main St", line2: "Apt 2", city: "Springfield", region: "IL", postalCode: "62701", country: "US" },
});

describe("the Acutrack-like disc service", () => {
  test("orders a DVD with the video, the label and the address, sending the key and the order's key", async () => {
    const made = await providers().acutrack.createOrder(input("dvd-1"));

    expect(made).toMatchObject({ externalId: "dvd-1", status: "received", trackingNumber: null });
    const sent = standIn.requests.at(-1)!;
    expect(sent.headers.authorization).toBe("Bearer acu_test_key");
    expect(sent.headers["idempotency-key"]).toBe("dvd-1");
    expect(sent.body).toMatchObject({
      reference: "dvd-1",
      quantity: 3,
      files: { video_url: input("x").videoUrl, label_url: input("x").artUrl },
      ship_to: { name: "Ana Silva", address1: "1 Main St", address2: "Apt 2", state: "IL", postal_code: "62701", country: "US" },
    });
  });

  test("the same key again gives the first order, not a second disc", async () => {
    const first = await providers().acutrack.createOrder(input("dvd-2"));
    const again = await providers().acutrack.createOrder(input("dvd-2"));
    expect(again.id).toBe(first.id);
    expect([...standIn.orders.values()].filter((o) => o.reference === "dvd-2")).toHaveLength(1);
  });

  test("reads progress and tracking; an unknown order is null", async () => {
    const made = await providers().acutrack.createOrder(input("dvd-3"));
    standIn.orders.set(made.id, { ...standIn.orders.get(made.id)!, status: "packed" });
    expect((await providers().acutrack.getOrder(made.id))?.status).toBe("printed");
    standIn.orders.set(made.id, {
      ...standIn.orders.get(made.id)!,
      status: "shipped",
      tracking: { number: "1Z999", url: "https://track.test/1Z999" },
    });
    expect(await providers().acutrack.getOrder(made.id)).toMatchObject({
      status: "shipped",
      trackingNumber: "1Z999",
      trackingUrl: "https://track.test/1Z999",
    });
    standIn.orders.set(made.id, { ...standIn.orders.get(made.id)!, status: "cancelled" });
    expect((await providers().acutrack.getOrder(made.id))?.status).toBe("failed");
    expect(await providers().acutrack.getOrder("AT-NOPE")).toBeNull();
  });
});

describe("the Heirloom-like book printer", () => {
  test("orders a photo book with the video, the cover and the address, sending its key", async () => {
    const made = await providers().heirloom.createOrder(input("book-1"));

    expect(made).toMatchObject({ externalId: "book-1", status: "received" });
    const sent = standIn.requests.at(-1)!;
    expect(sent.headers["x-api-key"]).toBe("hl_test_key");
    expect(sent.body).toMatchObject({
      external_id: "book-1",
      copies: 3,
      title: "Ana's 40th",
      cover_url: input("x").artUrl,
      recipient: { street1: "1 Main St", street2: "Apt 2", region: "IL", postcode: "62701", country_code: "US" },
    });
    const again = await providers().heirloom.createOrder(input("book-1"));
    expect(again.id).toBe(made.id);
  });

  test("reads a dispatched book with its tracking; an unknown book is null", async () => {
    const made = await providers().heirloom.createOrder(input("book-2"));
    standIn.orders.set(made.id, {
      ...standIn.orders.get(made.id)!,
      state: "dispatched",
      shipment: { tracking_code: "RM123GB", tracking_url: null },
    });
    expect(await providers().heirloom.getOrder(made.id)).toMatchObject({ status: "shipped", trackingNumber: "RM123GB", trackingUrl: null });
    expect(await providers().heirloom.getOrder("bk_nope")).toBeNull();
  });
});

describe("expected deliveries", () => {
  test("each service's estimated delivery day is read; one that is not a day is none", async () => {
    const disc = await providers().acutrack.createOrder(input("eta-1"));
    const book = await providers().heirloom.createOrder(input("eta-2"));
    expect(disc.expectedDelivery).toBe(ACUTRACK_ESTIMATE);
    expect(book.expectedDelivery).toBe(HEIRLOOM_ESTIMATE);
    standIn.orders.set(disc.id, { ...standIn.orders.get(disc.id)!, estimated_delivery_date: "soon" });
    standIn.orders.set(book.id, { ...standIn.orders.get(book.id)!, estimated_delivery: "2031-02-30" });
    expect((await providers().acutrack.getOrder(disc.id))?.expectedDelivery).toBeNull();
    expect((await providers().heirloom.getOrder(book.id))?.expectedDelivery).toBeNull();
  });
});

describe("failures", () => {
  test("a 5xx, a 429 and no answer in time may work later; a refusal will not; a wrong key is a refusal", async () => {
    const failure = async (run: () => Promise<unknown>) => {
      const error = await run().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(FulfilmentServiceError);
      return error as FulfilmentServiceError;
    };
    standIn.failNext(1, 503);
    expect((await failure(() => providers().acutrack.createOrder(input("f-1")))).retryable).toBe(true);
    standIn.failNext(1, 429);
    expect((await failure(() => providers().heirloom.createOrder(input("f-2")))).retryable).toBe(true);
    standIn.stallNext(1, 1500);
    const impatient = acutrackProvider({ apiKey: "acu_test_key", baseUrl: standIn.acutrackUrl, timeoutMs: 300 });
    const late = await failure(() => impatient.createOrder(input("f-3")));
    expect(late).toMatchObject({ retryable: true, message: "The disc service did not answer in time." });
    standIn.failNext(1, 422);
    const refused = await failure(() => providers().heirloom.createOrder(input("f-4")));
    expect(refused).toMatchObject({ retryable: false, message: "The book printer answered 422: Something broke." });
    const wrongKey = acutrackProvider({ apiKey: "wrong", baseUrl: standIn.acutrackUrl, timeoutMs: 5000 });
    expect((await failure(() => wrongKey.createOrder(input("f-5")))).retryable).toBe(false);
  });
});
