import { invoices } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import type { RunningServer } from "../../server";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import type { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

// Billing, invoices, the dashboard, payment pages and their API answers are kept by no cache
// (lib/private-answers.server.ts): every answer listed here, a page as it first loads, its data
// as the page asks for it later, an API call, an error, carries `Cache-Control: private, no-store`.

let server: RunningServer;
let organiser: TestClient;
let admin: TestClient;
/** Paths of the organiser's own things: a Chorus with its cart and payment page, and a receipt. */
const own: Record<"event" | "cart" | "session" | "invoice", string> = { event: "", cart: "", session: "", invoice: "" };

beforeAll(async () => {
  server = await startTestServer();
  const { user, client } = await loggedInUser(server.url);
  organiser = client;
  admin = (await loggedInUser(server.url, "admin")).client;
  const event = await createTestEvent(user);
  const cart = (await client.post("/api/v2/carts", { eventId: event.id })).body.data;
  const session = (await client.post("/api/v2/stripe/create-checkout-session", { cartId: cart.id })).body.data;
  // A Get Well Chorus is free: its cart is settled at once, with a receipt of its own.
  const free = await createTestEvent(user, { occasion: "getwell" });
  const freeCart = (await client.post("/api/v2/carts", { eventId: free.id })).body.data;
  expect((await client.post(`/api/v2/carts/${freeCart.id}/finalize`)).status).toBe(200);
  const [invoice] = await db().select().from(invoices).where(eq(invoices.userId, user.id));
  Object.assign(own, { event: event.uuid, cart: cart.id, session: session.id, invoice: invoice!.id });
});
afterAll(() => server?.close());

const NO_STORE = "private, no-store";

describe("answers with money or personal data carry Cache-Control: private, no-store", () => {
  test.each([
    ["GET", "/dashboard", 200],
    ["GET", "/dashboard?_data=routes%2Fdashboard", 200],
    ["GET", "/settings/billing", 200],
    ["GET", "/settings/billing?_data=routes%2Fsettings.billing", 200],
    ["GET", "/settings/billing/invoices/{invoice}", 200],
    ["GET", "/settings/billing/invoices/{invoice}?_data=routes%2Fsettings.billing_.invoices.%24id", 200],
    ["GET", "/settings/billing/invoices/6f1c1b0e-4a53-4f7e-9d43-0e8f9d3f2a11", 404],
    ["GET", "/settings/profile", 200],
    ["GET", "/e/{event}/checkout", 200],
    ["GET", "/checkout/complete?session_id={session}", 200],
    ["GET", "/local-payments/checkout/{session}", 200],
    ["GET", "/api/v2/invoices", 200],
    ["GET", "/api/v2/carts/{cart}", 200],
    ["POST", "/api/v2/carts", 400],
    ["POST", "/api/v2/stripe/create-checkout-session", 400],
    ["GET", "/api/stripe/retrieve-session?session_id={session}", 200],
    ["GET", "/api/v2/auth/who-am-i", 200],
  ] as const)("%s %s", async (method, template, status) => {
    const path = template.replace(/\{(\w+)\}/g, (_all, name: keyof typeof own) => own[name]);
    const reply = await organiser.raw(
      method,
      path,
      method === "POST" ? { body: "{}", headers: { "content-type": "application/json" } } : {},
    );
    expect(reply.status).toBe(status);
    expect(reply.headers.get("cache-control")).toBe(NO_STORE);
  });

  test("the staff console's pages", async () => {
    for (const path of ["/admin", "/admin/payments"]) {
      const reply = await admin.raw("GET", path);
      expect(reply.status, path).toBe(200);
      expect(reply.headers.get("cache-control"), path).toBe(NO_STORE);
    }
  });

  test("public pages and the API's answers that are the same for everyone keep their own", async () => {
    const home = await fetch(`${server.url}/`);
    expect(home.headers.get("cache-control")).toBeNull();
    const countries = await fetch(`${server.url}/api/v2/geo-countries`);
    expect(countries.headers.get("cache-control")).toBe("public, max-age=86400");
  });
});
