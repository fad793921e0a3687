import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PaymentCheckoutInput } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { insertRecipient } from "~/models/event.server";
import { paymentsProvider } from "~/services/payments/provider.server";
import type { RunningServer } from "../../server";
import { loggedInUser, uniqueEmail } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

// A payment's state (open, paid, its amount, the Chorus it links back to) and its pages are its
// payer's: the signed-in owner of what it pays for, or, for a contribution anyone may make without
// an account, the browser that started it. Anyone else holding its id gets a 404.

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const ADDRESS = { name: "Ada Lovelace", line1: "350 Fifth Avenue", city: "New York", region: "NY", postalCode: "10118", country: "US" };
const sessionOf = (url: string) => new URL(url).pathname.split("/").at(-1)!;

const cartCheckout = (userId: string, email: string): PaymentCheckoutInput => ({
  customerEmail: email,
  clientReferenceId: "cart-privacy",
  metadata: { kind: "cart", eventUuid: crypto.randomUUID(), userId },
  successUrl: `${server.url}/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
  cancelUrl: `${server.url}/dashboard`,
  idempotencyKey: crypto.randomUUID(),
  lines: [{ name: "Chorus", unitAmount: 500, currency: "usd", quantity: 1 }],
});

/** What `client` is told of session `id`: the API's status and the return page's. */
async function seenBy(client: TestClient, id: string) {
  const api = await client.get(`/api/stripe/retrieve-session?session_id=${id}`);
  const page = await client.raw("GET", `/checkout/complete?session_id=${id}`);
  return { api: api.status, body: api.body, page: page.status };
}

async function chorusWithRecipient() {
  const { user, client } = await loggedInUser(server.url);
  const event = await createTestEvent(user);
  await insertRecipient(db(), event.id, { firstName: "Ana", lastName: "Silva", email: uniqueEmail("ana"), phone: null });
  return { organiser: client, event };
}

describe("GET /api/stripe/retrieve-session and /checkout/complete", () => {
  test("a cart's payment is its owner's: anyone else, signed in or not, gets a 404 in the API's shape", async () => {
    const { user, client: owner } = await loggedInUser(server.url);
    const ref = await paymentsProvider().createPaymentCheckout(cartCheckout(user.id, user.email));

    expect(await seenBy(owner, ref.id)).toMatchObject({ api: 200, page: 200, body: { data: { sessionId: ref.id, state: "open" } } });
    const { client: stranger } = await loggedInUser(server.url);
    for (const other of [stranger, new TestClient(server.url)]) {
      const seen = await seenBy(other, ref.id);
      expect(seen).toMatchObject({ api: 404, page: 404 });
      expect(seen.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "There is no payment with this id." } });
    }
  });

  test("a postcard's payment is its creator's, not another signed-in user's", async () => {
    const { user, client: owner } = await loggedInUser(server.url);
    const event = await createTestEvent(user);
    const card = await owner.post("/api/v2/postcards", { eventId: event.id, templateId: "meadow", address: ADDRESS });
    const checkout = await owner.post(`/api/v2/postcards/${card.body.data.id}/checkout`, {});
    const id = sessionOf(checkout.body.data.url);

    expect(await seenBy(owner, id)).toMatchObject({ api: 200, page: 200 });
    expect(await seenBy((await loggedInUser(server.url)).client, id)).toMatchObject({ api: 404, page: 404 });
  });

  test("a tree contribution started without an account is the browser's that started it; the organiser and other browsers get a 404", async () => {
    const { organiser, event } = await chorusWithRecipient();
    const contributor = new TestClient(server.url);
    const started = await contributor.post("/api/v2/tree/contributions", {
      eventUuid: event.uuid,
      name: "Cy",
      email: "cy@example.test",
      quantity: 2,
    });
    expect(started.status).toBe(200);
    expect(Object.keys(started.body.data).sort()).toEqual(["amount", "currency", "id", "quantity", "url"]);
    const id = sessionOf(started.body.data.url);

    expect(await seenBy(contributor, id)).toMatchObject({ api: 200, page: 200, body: { data: { state: "open", amountTotal: 500 } } });
    for (const other of [organiser, new TestClient(server.url)]) expect(await seenBy(other, id)).toMatchObject({ api: 404, page: 404 });
  });

  test("a contribution started from the plain form keeps the same way, beside the browser's earlier ones", async () => {
    const { event } = await chorusWithRecipient();
    const contributor = new TestClient(server.url);
    const first = sessionOf(
      (await contributor.post("/api/v2/tree/contributions", { eventUuid: event.uuid, name: "Di", email: "di@example.test", quantity: 1 }))
        .body.data.url,
    );
    const planted = await contributor.form(`/e/${event.uuid}/trees`, { name: "Di", email: "di@example.test", quantity: "3" });
    expect(planted.status).toBe(302);
    const second = sessionOf(planted.headers.get("location")!);

    for (const id of [first, second]) expect(await seenBy(contributor, id)).toMatchObject({ api: 200, page: 200 });
    expect(await seenBy(new TestClient(server.url), second)).toMatchObject({ api: 404, page: 404 });
  });
});

describe("the return page's way back", () => {
  test("a contributor who paid goes back to the page they paid from, in words that fit them; an organiser to their Chorus", async () => {
    const { event } = await chorusWithRecipient();
    const contributor = new TestClient(server.url);
    const trees = await contributor.post("/api/v2/tree/contributions", {
      eventUuid: event.uuid,
      name: "Cy",
      email: "cy@example.test",
      quantity: 1,
    });
    const page = await (await contributor.raw("GET", `/checkout/complete?session_id=${sessionOf(trees.body.data.url)}`)).text();
    expect(page).toContain(`href="/e/${event.uuid}/trees"`);
    expect(page).toContain("Back to the trees");
    expect(page).not.toContain("your Chorus");
    const api = await contributor.get(`/api/stripe/retrieve-session?session_id=${sessionOf(trees.body.data.url)}`);
    expect(api.body.data).toMatchObject({ backTo: `/e/${event.uuid}/trees`, backLabel: "Back to the trees" });

    const { user, client: owner } = await loggedInUser(server.url);
    const cart = await paymentsProvider().createPaymentCheckout(cartCheckout(user.id, user.email));
    const own = await owner.get(`/api/stripe/retrieve-session?session_id=${cart.id}`);
    expect(own.body.data.backLabel).toBe("Back to your Chorus");
  });
});

describe("the local payment page", () => {
  test("shows the payer's e-mail to its payer, and only a masked form of it to anyone else holding its link", async () => {
    const email = `payer-${crypto.randomBytes(4).toString("hex")}@example.test`;
    const { user, client: owner } = await loggedInUser(server.url);
    const ref = await paymentsProvider().createPaymentCheckout(cartCheckout(user.id, email));
    const path = new URL(ref.url).pathname;

    expect(await (await owner.raw("GET", path)).text()).toContain(`Paying as <strong>${email}</strong>`);
    for (const other of [(await loggedInUser(server.url)).client, new TestClient(server.url)]) {
      const page = await (await other.raw("GET", path)).text();
      expect(page).toContain("Paying as <strong>p•••@e•••.test</strong>");
      expect(page).not.toContain(email);
    }
  });
});
