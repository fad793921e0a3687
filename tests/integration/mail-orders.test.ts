import crypto from "node:crypto";
import { localFulfilmentOrders, mailOrders, outboxMessages } from "drizzle/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { formatDeliveryDay, parcelDeliveryDay } from "~/domain/delivery-estimate";
import { db } from "~/lib/db.server";
import { publishVersion } from "~/models/published-media.server";
import { externalIdOf, followMailOrders, placeMailOrder } from "~/services/mail-orders/fulfilment.server";
import type { RunningServer } from "../../server";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { ACUTRACK_ESTIMATE, startFulfilmentStandIn, type FulfilmentStandIn } from "../support/fulfilment-stand-in";
import { TestClient } from "../support/http-client";
import { postPaymentEvent } from "../support/payments";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// DVDs and photo books by post: DVDs through the disc service's adapter against its stand-in, photo
// books through the local book printer; paid through the local payment service and its webhook.

let server: RunningServer;
let standIn: FulfilmentStandIn;
beforeAll(async () => {
  standIn = await startFulfilmentStandIn();
  server = await startTestServer({
    JOB_POLL_SECONDS: "0.5",
    JOB_RETRY_LIMIT: "1",
    JOB_RETRY_DELAY_SECONDS: "1",
    ACUTRACK_API_KEY: "acu_test_key",
    ACUTRACK_API_URL: standIn.acutrackUrl,
    HEIRLOOM_API_KEY: "",
    FULFILMENT_TIMEOUT_SECONDS: "2",
    LOCAL_FULFILMENT_STEP_SECONDS: "1",
  });
});
afterAll(async () => {
  await server?.close();
  await standIn?.close();
});

const ADDRESS = { name: "Ana Silva", line1: "1 Main St", city: "Springfield", region: "il", postalCode: "62701", country: "us" };

async function organiser({ published = true } = {}) {
  const { user, client } = await loggedInUser(server.url);
  const event = await createTestEvent(user, { title: "Ana turns 40" });
  if (published) {
    await publishVersion(db(), {
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
  }
  return { user, client, event };
}

const orderRow = async (id: string) => (await db().select().from(mailOrders).where(eq(mailOrders.id, id)))[0]!;
const mailsTo = (email: string) => db().select().from(outboxMessages).where(eq(outboxMessages.to, email));

async function payWithTestCard(client: TestClient, checkoutUrl: string) {
  const path = new URL(checkoutUrl).pathname;
  expect(path).toMatch(/^\/local-payments\/checkout\//);
  const paid = await client.form(path, { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123" });
  expect(paid.status).toBe(302);
}

describe("ordering", () => {
  test("a DVD: priced per copy plus postage, paid, placed with the disc service once, followed to the post with an e-mail at each step", async () => {
    const { user, client, event } = await organiser();

    const reply = await client.post("/api/v2/acutrack/orders", { eventId: event.id, quantity: 2, ...ADDRESS });
    expect(reply.status).toBe(201);
    expect(reply.body.data.order).toMatchObject({
      kind: "dvd",
      quantity: 2,
      status: "awaiting_payment",
      unitAmount: 1900,
      shippingAmount: 599,
      totalAmount: 4399,
      total: "$43.99",
      address: { region: "IL", country: "US", line2: null },
    });
    const id = reply.body.data.order.id as string;

    await payWithTestCard(client, reply.body.data.paymentUrl);
    await until(async () => (await orderRow(id)).status === "received", { timeout: 20_000, what: "the DVD to be placed" });
    const placed = await orderRow(id);
    expect(placed).toMatchObject({ vendor: "acutrack", paymentIntentId: expect.any(String) });
    const sent = standIn.requests.filter((r) => r.method === "POST" && r.body?.reference === externalIdOf(id));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ quantity: 2, title: "Ana turns 40", ship_to: { state: "IL", postal_code: "62701" } });

    // The label art the service fetches: a PDF, with the order's token only.
    const label = await new TestClient(server.url).raw("GET", new URL((sent[0]!.body!.files as { label_url: string }).label_url).pathname);
    expect(label.status).toBe(200);
    expect(label.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await label.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    expect((await new TestClient(server.url).raw("GET", `/mail-orders/${id}/wrong-token/label.pdf`)).status).toBe(404);

    standIn.orders.set(placed.vendorOrderId!, { ...standIn.orders.get(placed.vendorOrderId!)!, status: "printed" });
    expect(await followMailOrders()).toBeGreaterThanOrEqual(1);
    expect((await orderRow(id)).status).toBe("printed");
    standIn.orders.set(placed.vendorOrderId!, {
      ...standIn.orders.get(placed.vendorOrderId!)!,
      status: "shipped",
      tracking: { number: "1Z999AA1", url: "https://track.test/1Z999AA1" },
    });
    await followMailOrders();
    expect(await orderRow(id)).toMatchObject({ status: "shipped", trackingNumber: "1Z999AA1" });
    await followMailOrders();

    const subjects = (await mailsTo(user.email)).map((m) => m.subject).filter((s) => s?.startsWith("Your dvd"));
    expect(subjects.sort()).toEqual([
      "Your dvd of the video is in the post",
      "Your dvd of the video is printed",
      "Your dvd of the video is with the printer",
    ]);
    const shippedMail = (await mailsTo(user.email)).find((m) => m.subject?.endsWith("in the post"))!;
    expect(shippedMail.text).toContain("Tracking number: 1Z999AA1");

    const page = await (await client.raw("GET", `/e/${event.uuid}/post`)).text();
    expect(page).toContain("Posted");
    expect(page).toContain("1Z999AA1");
    // The disc service's own estimate and tracking page.
    expect(placed.expectedDelivery).toBe(ACUTRACK_ESTIMATE);
    expect(page).toContain(`Expected by ${formatDeliveryDay(ACUTRACK_ESTIMATE)}.`);
    expect(page).toContain(`<a href="https://track.test/1Z999AA1">Track it</a>`);
    expect(shippedMail.text).toContain("Follow it: https://track.test/1Z999AA1");
  }, 60_000);

  test("a photo book through the local printer moves from received to printed to shipped with a tracking number", async () => {
    const { client, event } = await organiser();
    const reply = await client.post("/api/v2/heirloom", {
      eventId: event.id,
      quantity: "1",
      ...ADDRESS,
      country: "GB",
      region: "",
      postalCode: "sw1a1aa",
    });
    expect(reply.status).toBe(201);
    expect(reply.body.data.order).toMatchObject({ kind: "keepsake", product: "Printed photo book", totalAmount: 3900 + 1499 });
    await payWithTestCard(client, reply.body.data.paymentUrl);
    const id = reply.body.data.order.id as string;
    await until(async () => (await orderRow(id)).vendorOrderId, { timeout: 20_000, what: "the book to be placed" });
    await until(async () => (await followMailOrders(), (await orderRow(id)).status === "shipped"), {
      timeout: 10_000,
      what: "the book to ship",
    });
    expect((await orderRow(id)).trackingNumber).toMatch(/^LOCAL[0-9A-F]{12}$/);
  });

  test("the local printer expects a book by its business days, and the order page, the e-mail and its tracking page say so and where it is", async () => {
    const { user, client, event } = await organiser();
    const reply = await client.post("/api/v2/heirloom", {
      eventId: event.id,
      quantity: 2,
      ...ADDRESS,
      country: "GB",
      region: "",
      postalCode: "sw1a1aa",
    });
    await payWithTestCard(client, reply.body.data.paymentUrl);
    const id = reply.body.data.order.id as string;
    const vendorOrderId = await until(async () => (await orderRow(id)).vendorOrderId, { timeout: 20_000, what: "the book to be placed" });
    const [taken] = await db().select().from(localFulfilmentOrders).where(eq(localFulfilmentOrders.id, vendorOrderId));
    // Made in 5 business days, then up to 10 in the post to Europe: weeks away, not today.
    const day = parcelDeliveryDay(taken!.createdAt, "keepsake", "GB");
    expect(Date.parse(day) - taken!.createdAt.getTime()).toBeGreaterThan(14 * 24 * 3600 * 1000);
    const tracking = `${server.url}/local-parcels/${vendorOrderId}`;
    expect(await orderRow(id)).toMatchObject({ expectedDelivery: day, trackingUrl: tracking });

    await until(async () => (await followMailOrders(), (await orderRow(id)).status === "shipped"), {
      timeout: 10_000,
      what: "the book to ship",
    });
    const { trackingNumber } = await orderRow(id);
    const page = await (await client.raw("GET", `/e/${event.uuid}/post`)).text();
    expect(page).toContain(`Expected by ${formatDeliveryDay(day)}.`);
    expect(page).toContain(`<a href="${tracking}">Track it</a>`);
    const posted = await until(async () => (await mailsTo(user.email)).find((m) => m.subject?.endsWith("is in the post")), {
      what: "the in-the-post mail",
    });
    expect(posted.text).toContain(`Follow it: ${tracking}`);
    expect(posted.text).toContain(`Expected by ${formatDeliveryDay(day)}.`);

    // Its tracking page, open to whoever has the link as a carrier's is: where it is and when it comes,
    // the town and country it goes to, never the street or the name.
    const where = await new TestClient(server.url).raw("GET", new URL(tracking).pathname);
    expect(where.status).toBe(200);
    const text = await where.text();
    expect(text).toContain("Local book printer");
    expect(text).toContain("In the post.");
    expect(text).toContain(`Tracking number ${trackingNumber}.`);
    expect(text).toContain(`Expected by ${formatDeliveryDay(day)}.`);
    expect(text).toContain("Going to Springfield, United Kingdom");
    expect(text).not.toContain("1 Main St");
    expect(text).not.toContain("Ana Silva");
    expect((await new TestClient(server.url).raw("GET", "/local-parcels/lbook_nope")).status).toBe(404);
  });

  test("two placements at once, or one after a worker died before saving, make one order at the service", async () => {
    const { client, event } = await organiser();
    const reply = await client.post("/api/v2/heirloom", { eventId: event.id, quantity: 1, ...ADDRESS });
    await payWithTestCard(client, reply.body.data.paymentUrl);
    const id = reply.body.data.order.id as string;
    await until(async () => (await orderRow(id)).vendorOrderId, { timeout: 20_000, what: "the book to be placed" });
    const first = (await orderRow(id)).vendorOrderId;

    // As if the worker died after the service took it and before the order was saved.
    await db().update(mailOrders).set({ status: "paid", vendorOrderId: null }).where(eq(mailOrders.id, id));
    await Promise.all([placeMailOrder(id, { finalAttempt: false }), placeMailOrder(id, { finalAttempt: false })]);

    expect((await orderRow(id)).vendorOrderId).toBe(first);
    const atService = await db()
      .select()
      .from(localFulfilmentOrders)
      .where(and(eq(localFulfilmentOrders.service, "keepsake"), eq(localFulfilmentOrders.externalId, externalIdOf(id))));
    expect(atService).toHaveLength(1);
  });
});

describe("refusals", () => {
  test("bad addresses, countries we do not post to and quantities outside 1 to 10 are 400s naming the fields", async () => {
    const { client, event } = await organiser();
    const ask = (fields: Record<string, unknown>) =>
      client.post("/api/v2/acutrack/orders", { eventId: event.id, quantity: 1, ...ADDRESS, ...fields });

    const badCode = await ask({ postalCode: "ABC" });
    expect(badCode.status).toBe(400);
    expect(badCode.body).toMatchObject({
      success: false,
      error: { code: "VALIDATION_FAILED", fields: { postalCode: "Enter the postal code like 10001 or 10001-1234." } },
    });
    expect((await ask({ region: "" })).body.error.fields).toEqual({ region: "Enter the state, like NY." });
    expect((await ask({ country: "JP", region: "", postalCode: "100-0001" })).body.error.fields).toEqual({
      country: "We cannot post to this country yet.",
    });
    for (const quantity of [0, 11, "two", 1.5]) {
      const reply = await ask({ quantity });
      expect(reply.status).toBe(400);
      expect(reply.body.error.fields).toEqual({ quantity: "Choose 1 to 10 copies." });
    }
    expect((await ask({ line1: "", city: "" })).body.error.fields).toMatchObject({
      line1: "Enter the street address.",
      city: "Enter the town or city.",
    });
    expect(await db().select().from(mailOrders).where(eq(mailOrders.eventId, event.id))).toEqual([]);
  });

  test("before the video is published: 409 with a clear message; someone who does not manage the Chorus: 404", async () => {
    const { client, event } = await organiser({ published: false });
    const early = await client.post("/api/v2/heirloom", { eventId: event.id, quantity: 1, ...ADDRESS });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: "NOT_PUBLISHED", message: expect.stringContaining("publish the video first") });

    const published = await organiser();
    const stranger = (await loggedInUser(server.url)).client;
    const refused = await stranger.post("/api/v2/acutrack/orders", { eventId: published.event.id, quantity: 1, ...ADDRESS });
    expect(refused.status).toBe(404);
    expect((await stranger.raw("GET", `/e/${published.event.uuid}/post`)).status).toBe(404);
    expect(
      (await new TestClient(server.url).post("/api/v2/heirloom", { eventId: published.event.id, quantity: 1, ...ADDRESS })).status,
    ).toBe(401);
  });
});

describe("the order page, without JavaScript", () => {
  test("the event page links it; a plain form with field errors, then on to the payment page; before publishing, no form", async () => {
    const { client, event } = await organiser();
    expect(await (await client.raw("GET", `/e/${event.uuid}`)).text()).toContain(`href="/e/${event.uuid}/post"`);
    const page = await (await client.raw("GET", `/e/${event.uuid}/post`)).text();
    expect(page).toMatch(/Printed photo book<\/strong>, (<!-- -->)?\$39\.00/);
    expect(page).toContain('<option value="GB">');
    expect(page).not.toContain('<option value="JP">');

    const fields = {
      kind: "keepsake",
      quantity: "12",
      name: "Ana Silva",
      line1: "1 Main St",
      line2: "",
      city: "Springfield",
      region: "",
      postalCode: "62701",
      country: "US",
    };
    const refused = await client.form(`/e/${event.uuid}/post`, fields);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Choose 1 to 10 copies.");
    expect(html).toContain('value="Springfield"');
    const sent = await client.form(`/e/${event.uuid}/post`, { ...fields, quantity: "2", region: "IL" });
    expect(sent.status).toBe(302);
    expect(new URL(sent.headers.get("location")!).pathname).toMatch(/^\/local-payments\/checkout\//);
    const [row] = await db().select().from(mailOrders).where(eq(mailOrders.eventId, event.id));
    expect(row).toMatchObject({ kind: "keepsake", quantity: 2, totalAmount: 2 * 3900 + 599, status: "awaiting_payment" });
    expect(await (await client.raw("GET", `/e/${event.uuid}/post`)).text()).toContain("Waiting for payment");

    const early = await organiser({ published: false });
    const earlyPage = await (await early.client.raw("GET", `/e/${early.event.uuid}/post`)).text();
    expect(earlyPage).toContain("Publish the video first");
    expect(earlyPage).not.toContain("Order and pay");
  });
});

describe("when the service fails", () => {
  test("failures are retried, then the order is failed with a reason; staff try again, or refund it", async () => {
    const { user, client, event } = await organiser();
    const reply = await client.post("/api/v2/acutrack/orders", { eventId: event.id, quantity: 1, ...ADDRESS });
    const id = reply.body.data.order.id as string;
    standIn.failNext(50, 503);
    await payWithTestCard(client, reply.body.data.paymentUrl);
    await until(async () => (await orderRow(id)).status === "failed", { timeout: 30_000, what: "the DVD to fail" });
    expect((await orderRow(id)).failure).toBe("The disc service answered 503: Something broke. Nothing was posted.");
    standIn.failNext(0);
    await until(async () => (await mailsTo(user.email)).some((m) => m.subject === "Your dvd of the video could not be made"), {
      timeout: 5000,
      what: "the organiser to be told",
    });

    const staff = (await loggedInUser(server.url, "admin")).client;
    const list = await (await staff.raw("GET", "/admin/orders")).text();
    expect(list).toContain(event.title);
    expect(list).toContain("The disc service answered 503");

    const retried = await staff.form("/admin/orders", { intent: "retry", orderId: id });
    expect(retried.status).toBe(302);
    await until(async () => (await orderRow(id)).status === "received", { timeout: 20_000, what: "the DVD to be placed again" });

    // Another order that fails is refunded instead.
    const second = await client.post("/api/v2/acutrack/orders", { eventId: event.id, quantity: 1, ...ADDRESS });
    const secondId = second.body.data.order.id as string;
    standIn.failNext(1, 422);
    await payWithTestCard(client, second.body.data.paymentUrl);
    await until(async () => (await orderRow(secondId)).status === "failed", { timeout: 20_000, what: "the second DVD to be refused" });
    const refunded = await staff.form("/admin/orders", { intent: "refund", orderId: secondId });
    expect(refunded.status).toBe(302);
    expect(await orderRow(secondId)).toMatchObject({ status: "refunded", amountRefunded: 1900 + 499 });
    // A user who is not staff cannot see or act.
    expect((await client.raw("GET", "/admin/orders")).status).toBeGreaterThanOrEqual(400);
  }, 60_000);
});

describe("a payment page left unpaid", () => {
  const ORDER_FIELDS = {
    kind: "keepsake",
    quantity: "1",
    name: "Ana Silva",
    line1: "1 Main St",
    city: "Springfield",
    region: "IL",
    postalCode: "62701",
    country: "US",
  };

  /** An order made on the page, and its payment page's session as the payment service sends it when it expires. */
  async function orderLeftUnpaid() {
    const { user, client, event } = await organiser();
    const started = await client.form(`/e/${event.uuid}/post`, ORDER_FIELDS);
    expect(started.status).toBe(302);
    const [order] = await db().select().from(mailOrders).where(eq(mailOrders.eventId, event.id));
    const metadata = { kind: "mail-order", mailOrderId: order!.id, eventUuid: event.uuid };
    const session = { id: order!.checkoutSessionId, object: "checkout.session", status: "expired", payment_status: "unpaid", metadata };
    return { user, client, event, order: order!, session, firstPage: started.headers.get("location")! };
  }

  test("its expiry abandons the order, once; the page says so and Pay again opens a new page that pays it", async () => {
    const { client, event, order, session, firstPage } = await orderLeftUnpaid();
    const expired = await postPaymentEvent(client, "checkout.session.expired", session);
    expect(expired).toMatchObject({ status: 200, body: { data: { outcome: "applied" } } });
    expect(await orderRow(order.id)).toMatchObject({ status: "abandoned", checkoutAttempts: 1 });
    expect((await postPaymentEvent(client, "checkout.session.expired", session, expired.id)).body.data?.outcome).toBe("duplicate");

    const page = await (await client.raw("GET", `/e/${event.uuid}/post`)).text();
    expect(page).toContain("Not paid: the payment page expired, so nothing was charged");
    expect(page).toContain("Pay again ($43.99)");

    const again = await client.form(`/e/${event.uuid}/post`, { intent: "pay", orderId: order.id });
    expect(again.status).toBe(302);
    const secondPage = again.headers.get("location")!;
    expect(new URL(secondPage).pathname).toMatch(/^\/local-payments\/checkout\//);
    expect(secondPage).not.toBe(firstPage);
    expect(await orderRow(order.id)).toMatchObject({ status: "awaiting_payment", checkoutAttempts: 1 });
    // The old page's expiry told again changes nothing: the order now waits for the new one.
    expect((await postPaymentEvent(client, "checkout.session.expired", session)).body.data?.outcome).toBe("ignored");

    await payWithTestCard(client, secondPage);
    await until(async () => (await orderRow(order.id)).status !== "awaiting_payment", { timeout: 20_000, what: "the order to be paid" });
    expect((await orderRow(order.id)).paidAt).not.toBeNull();
    // Someone else's order, or one already paid, cannot be paid again from the page.
    const stranger = await organiser();
    expect((await stranger.client.form(`/e/${stranger.event.uuid}/post`, { intent: "pay", orderId: order.id })).status).toBe(404);
    expect((await client.form(`/e/${event.uuid}/post`, { intent: "pay", orderId: order.id })).status).toBe(409);
  });

  test("a payment of the old page that comes after its expiry is honoured: the order is placed", async () => {
    const { client, order, session } = await orderLeftUnpaid();
    expect((await postPaymentEvent(client, "checkout.session.expired", session)).body.data?.outcome).toBe("applied");
    const late = await postPaymentEvent(client, "checkout.session.completed", {
      ...session,
      status: "complete",
      payment_status: "paid",
      payment_intent: `pi_late_${crypto.randomBytes(6).toString("hex")}`,
      amount_total: order.totalAmount,
      currency: "usd",
    });
    expect(late.body.data?.outcome).toBe("applied");
    await until(async () => ["received", "printed", "shipped"].includes((await orderRow(order.id)).status), {
      timeout: 20_000,
      what: "the late-paid order to be placed",
    });
  });
});

describe("offered where people pay", () => {
  test("the cart page of a published Chorus offers both by post; the offer opens the form with it chosen and the last address filled in", async () => {
    const { client, event } = await organiser();
    const cart = await (await client.raw("GET", `/e/${event.uuid}/checkout`)).text();
    expect(cart).toContain("Also by post");
    expect(cart).toContain(`href="/e/${event.uuid}/post?kind=keepsake"`);
    expect(cart).toContain(`href="/e/${event.uuid}/post?kind=dvd"`);

    const form = await (await client.raw("GET", `/e/${event.uuid}/post?kind=keepsake`)).text();
    expect(form).toContain(`checked="" value="keepsake"`);
    expect(form).toContain(`href="/e/${event.uuid}/checkout"`);
    // After one order, the next form starts from its address.
    expect((await client.post("/api/v2/heirloom", { eventId: event.id, quantity: 1, ...ADDRESS })).status).toBe(201);
    const again = await (await client.raw("GET", `/e/${event.uuid}/post?kind=dvd`)).text();
    expect(again).toContain(`checked="" value="dvd"`);
    expect(again).toContain('value="Springfield"');
    expect(again).toContain('value="62701"');

    const early = await organiser({ published: false });
    expect(await (await early.client.raw("GET", `/e/${early.event.uuid}/checkout`)).text()).not.toContain("Also by post");
  });
});
