import { treeContributions, type TreeContribution } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { digitalHumaniProvider } from "~/integrations/trees/digital-humani.server";
import { db } from "~/lib/db.server";
import { dropSingleton, setSingleton } from "~/lib/singleton.server";
import { insertRecipient } from "~/models/event.server";
import type { PotUpdate } from "~/realtime/events";
import type { RunningServer } from "../../server";
import { createUser, logIn, loggedInUser, mailsTo, uniqueEmail } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";
import { startTreePlantingStandIn, type TreePlantingStandIn } from "../support/tree-planting-stand-in";
import { until } from "../support/wait";

// Trees in the recipient's honour (docs/decisions/028-trees-and-the-live-pot.md), paid through the
// local payment service and its webhook, planted by the local vendor or, where a test says so, by
// the HTTP adapter against a stand-in of the vendor's API.

let server: RunningServer;
let vendor: TreePlantingStandIn;
beforeAll(async () => {
  vendor = await startTreePlantingStandIn();
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5", JOB_RETRY_DELAY_SECONDS: "1", JOB_RETRY_LIMIT: "3" });
});
afterAll(async () => {
  dropSingleton("treePlantingProvider");
  await server.close();
  await vendor.close();
});

/** Plants through the vendor's API stand-in from now on; the local vendor otherwise. */
function plantThroughStandIn() {
  setSingleton("treePlantingProvider", digitalHumaniProvider({ apiKey: "k", baseUrl: vendor.url, enterpriseId: "e", timeoutMs: 500 }));
}

async function chorus() {
  const { user, client } = await loggedInUser(server.url);
  const event = await createTestEvent(user);
  await insertRecipient(db(), event.id, { firstName: "Ana", lastName: "Silva", email: uniqueEmail("ana"), phone: null });
  return { client, event };
}

const contributionOf = async (id: string): Promise<TreeContribution | undefined> =>
  (await db().select().from(treeContributions).where(eq(treeContributions.id, id)))[0];

/** Pays on the local payment service's page with the test card, as a person without JavaScript. */
async function payWithTestCard(client: TestClient, checkoutUrl: string) {
  const paid = await client.form(new URL(checkoutUrl).pathname, { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123" });
  expect(paid.status).toBe(302);
}

/** Starts and pays for `quantity` trees; resolves with the contribution's id. */
async function plantAndPay(eventUuid: string, quantity: number, email = uniqueEmail("friend")) {
  const payer = new TestClient(server.url);
  const started = await payer.post("/api/v2/tree/contributions", { eventUuid, name: "Friend", email, quantity });
  expect(started.status).toBe(200);
  await payWithTestCard(payer, started.body.data.url);
  return started.body.data.id as string;
}

describe("POST /api/v2/tree/contributions", () => {
  test("starts a payment for the trees at the catalogue's price", async () => {
    const { event } = await chorus();
    const reply = await new TestClient(server.url).post("/api/v2/tree/contributions", {
      eventUuid: event.uuid,
      name: "Cy",
      email: "cy@example.test",
      quantity: 4,
    });

    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ quantity: 4, amount: 1000, currency: "usd" });
    expect(reply.body.data.url).toContain("/local-payments/checkout/");
    expect(await contributionOf(reply.body.data.id)).toMatchObject({ status: "pending", unitAmount: 250, amount: 1000 });
  });

  test("a quantity outside 1 to 100, or not a whole number, is a 400 naming the field", async () => {
    const { event } = await chorus();
    const client = new TestClient(server.url);
    for (const quantity of [0, 101, 2.5, "lots", null]) {
      const reply = await client.post("/api/v2/tree/contributions", {
        eventUuid: event.uuid,
        name: "Di",
        email: "di@example.test",
        quantity,
      });
      expect(reply.status, `quantity ${quantity}`).toBe(400);
      expect(reply.body).toMatchObject({ success: false, error: { code: "VALIDATION_FAILED", fields: { quantity: expect.any(String) } } });
    }
    const noChorus = await client.post("/api/v2/tree/contributions", {
      eventUuid: "nope",
      name: "Di",
      email: "di@example.test",
      quantity: 1,
    });
    expect(noChorus.body.error.fields.eventUuid).toBeTruthy();
  });

  test("a Chorus that does not exist, or the recipient's own link, is a 404", async () => {
    const { event } = await chorus();
    const client = new TestClient(server.url);
    const body = { name: "Ed", email: "ed@example.test", quantity: 1 };

    const unknown = await client.post("/api/v2/tree/contributions", { ...body, eventUuid: "00000000-0000-4000-8000-000000000000" });
    expect(unknown.status).toBe(404);
    const recipient = await client.post(`/api/v2/tree/contributions?privateKey=${event.privateKey}`, { ...body, eventUuid: event.uuid });
    expect(recipient.status).toBe(404);
    expect(recipient.body.success).toBe(false);
  });
});

describe("planting, without JavaScript", () => {
  test("the trees form opens the payment page; the webhook records it; the trees are planted once; the recipient sees a certificate", async () => {
    const { event } = await chorus();
    const contributor = new TestClient(server.url);

    expect(await (await contributor.raw("GET", `/e/${event.uuid}`)).text()).toContain(`/e/${event.uuid}/trees`);
    const form = await contributor.raw("GET", `/e/${event.uuid}/trees`);
    expect(await form.text()).toContain("No trees yet");
    const refused = await contributor.form(`/e/${event.uuid}/trees`, { name: "Bea", email: "bea@example.test", quantity: "500" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Plant at most 100 trees at a time.");

    const sent = await contributor.form(`/e/${event.uuid}/trees`, { name: "Bea", email: "bea@example.test", quantity: "3" });
    expect(sent.status).toBe(302);
    await payWithTestCard(contributor, sent.headers.get("location")!);
    const [row] = await db().select().from(treeContributions).where(eq(treeContributions.eventId, event.id));
    await until(async () => (await contributionOf(row!.id))?.status === "planted", { timeout: 20_000, what: "the trees to be planted" });

    expect(await contributionOf(row!.id)).toMatchObject({ quantity: 3, amount: 750, plantingId: expect.stringMatching(/^ltp_/) });
    const page = await (await contributor.raw("GET", `/e/${event.uuid}`)).text();
    expect(page).toMatch(/<strong>3 trees<\/strong> planted in the recipient/);
    const certificate = await (await new TestClient(server.url).raw("GET", `/e/${event.uuid}/trees?privateKey=${event.privateKey}`)).text();
    expect(certificate).toContain("Certificate of planting");
    expect(certificate).toContain("3 trees planted in honour of Ana Silva");
    expect(certificate).not.toContain("Plant and pay");
  });

  test("a worker that loses the vendor's answer plants once: the retry, with the same key, finds the same planting", async () => {
    plantThroughStandIn();
    try {
      const { event } = await chorus();
      vendor.failNext(1, "hang");

      const id = await plantAndPay(event.uuid, 5);

      await until(async () => (await contributionOf(id))?.status === "planted", { timeout: 30_000, what: "the retried planting" });
      const asked = vendor.requests.filter((r) => r.idempotencyKey === id);
      expect(asked.length).toBeGreaterThanOrEqual(2);
      expect(asked.every((r) => r.body?.treeCount === 5)).toBe(true);
      expect((await contributionOf(id))?.plantingId).toBe(vendor.plantings.get(id)?.uuid);
    } finally {
      dropSingleton("treePlantingProvider");
    }
  });

  test("a vendor that refuses for good fails the trees, staff see why, the money goes back and the contributor is told", async () => {
    plantThroughStandIn();
    try {
      const { event } = await chorus();
      const email = uniqueEmail("refused");
      vendor.failNext(1, 400);

      const id = await plantAndPay(event.uuid, 2, email);

      await until(async () => (await contributionOf(id))?.status === "refunded", { timeout: 20_000, what: "the refund" });
      expect(await contributionOf(id)).toMatchObject({ amount: 500, amountRefunded: 500 });
      expect((await contributionOf(id))?.failure).toContain("The trees were not planted.");
      // Beside the payment's receipt, sent by a job of its own in either order.
      await expect
        .poll(async () => (await mailsTo(email)).map((mail) => mail.subject), { timeout: 15_000 })
        .toEqual(expect.arrayContaining(["Your $5.00 for 2 trees is refunded"]));

      const admin = await createUser({ role: "admin" });
      const staff = new TestClient(server.url);
      await logIn(staff, admin.email);
      const list = await (await staff.raw("GET", "/admin/trees")).text();
      expect(list).toContain(`data-tree-contribution="${id}"`);
      expect(list).toContain("Project is not active");
      expect((await new TestClient(server.url).raw("GET", "/admin/trees")).status).not.toBe(200);
    } finally {
      dropSingleton("treePlantingProvider");
    }
  });
});

describe("the live pot", () => {
  test("everyone on the Chorus page sees the gift-card pot and the tree count grow as payments land", async () => {
    const { client, event } = await chorus();
    expect(
      (await client.form(`/e/${event.uuid}`, { intent: "gift", country: "US", productId: "LOCAL-COFFEE-USD", target: "" })).status,
    ).toBe(200);
    const socket: Socket = connect(`${server.url}/public`, { transports: ["websocket"], reconnection: false, forceNew: true });
    const updates: PotUpdate[] = [];
    socket.on("pot:updated", (update: PotUpdate) => updates.push(update));
    try {
      await new Promise<void>((resolve) => socket.on("session:ready", () => resolve()));
      // Joining is not acknowledged; the money lands seconds later, through a checkout and a queued webhook.
      socket.emit("event:join", event.uuid);

      const payer = new TestClient(server.url);
      const chip = await payer.post("/api/v2/tremendous/contributions", {
        eventUuid: event.uuid,
        name: "Fi",
        email: uniqueEmail("fi"),
        amount: "12",
      });
      await payWithTestCard(payer, chip.body.data.url);
      await until(() => updates.some((u) => u.gift?.potTotal === 1200), { timeout: 20_000, what: "the pot's update" });
      expect(updates.at(-1)).toMatchObject({
        eventUuid: event.uuid,
        gift: { potTotal: 1200, contributions: 1, currency: "USD" },
        trees: 0,
      });

      await plantAndPay(event.uuid, 6);
      await until(() => updates.some((u) => u.trees === 6), { timeout: 20_000, what: "the tree count's update" });
      expect(updates.at(-1)).toMatchObject({ gift: { potTotal: 1200 }, trees: 6 });
    } finally {
      socket.close();
    }
    // Without JavaScript, a reload shows the same.
    const page = await (await new TestClient(server.url).raw("GET", `/e/${event.uuid}`)).text();
    expect(page).toMatch(/\$12\.00<\/strong> from.*1.*person/s);
    expect(page).toMatch(/<strong>6 trees<\/strong>/);
  });
});
