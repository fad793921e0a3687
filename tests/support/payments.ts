import crypto from "node:crypto";
import { payments, type Event, type User } from "drizzle/schema";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { db } from "~/lib/db.server";
import { findEventById } from "~/models/event.server";
import { findOrInsertProviderInvoice } from "~/models/payment.server";
import { updateUser } from "~/models/user.server";
import { localPaymentKeys } from "~/services/payments/local/keys.server";
import type { TestClient } from "./http-client";
import { until } from "./wait";

/**
 * Pay on the cart page, as an organiser without JavaScript would: the `selected` upsells and add-ons
 * ticked and the total updated, Pay, then the test card on the local payment service's page.
 * Resolves once the card is taken (the webhook follows).
 */
export async function payOnCartPage(organiser: TestClient, event: Pick<Event, "uuid">, selected: string[] = []) {
  const cartPath = `/e/${event.uuid}/checkout`;
  const post = (fields: [string, string][]) =>
    organiser.raw("POST", cartPath, {
      body: new URLSearchParams([...fields, ...selected.map((key): [string, string] => ["selected", key])]),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  const versionOnPage = async () => {
    const cartPage = await (await organiser.raw("GET", cartPath)).text();
    const version = /name="version" value="(\d+)"/.exec(cartPage)?.[1];
    if (!version) throw new Error("the cart page has no version field");
    return version;
  };
  if (selected.length) {
    const updated = await post([
      ["intent", "update"],
      ["version", await versionOnPage()],
      ["billingCountry", ""],
    ]);
    if (updated.status !== 302) throw new Error(`the cart did not take ${selected.join(", ")}: ${updated.status}`);
  }
  const pay = await post([
    ["intent", "pay"],
    ["version", await versionOnPage()],
    ["billingCountry", ""],
  ]);
  const checkout = new URL(pay.headers.get("location") ?? "", "http://unknown");
  if (pay.status !== 302 || !checkout.pathname.startsWith("/local-payments/checkout/")) {
    throw new Error(`Pay did not open the payment page: ${pay.status} ${checkout.pathname}`);
  }
  const paid = await organiser.form(checkout.pathname, { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123" });
  if (paid.status !== 302) throw new Error(`the test card was not taken: ${paid.status}`);
}

/**
 * Pays for an organiser's Chorus (with the `selected` upsells and add-ons) as they would without
 * JavaScript; resolves with the payment once the service's webhook has marked the Chorus paid.
 */
export async function payThroughLocalService(
  organiser: TestClient,
  event: Pick<Event, "id" | "uuid">,
  { selected = [] }: { selected?: string[] } = {},
) {
  await payOnCartPage(organiser, event, selected);
  await until(async () => (await findEventById(db(), event.id))?.paid, { timeout: 20_000, what: "the webhook to mark the Chorus paid" });
  const [payment] = await db().select().from(payments).where(eq(payments.eventId, event.id));
  if (!payment) throw new Error("the Chorus is paid but no payment was recorded");
  return payment;
}

/** The premium finish bought for a Chorus (with the Chorus itself), through the cart as an organiser does. */
export const buyPremiumFinish = (organiser: TestClient, event: Pick<Event, "id" | "uuid">) =>
  payThroughLocalService(organiser, event, { selected: ["premium"] });

/**
 * A VIP member, as the subscription's webhook leaves them: every Chorus of theirs is unlocked and
 * has the premium finish (docs/decisions/021).
 */
export async function makeMember(user: Pick<User, "id">) {
  return (await updateUser(db(), user.id, {
    subscriptionId: `sub_test_${crypto.randomBytes(6).toString("hex")}`,
    membershipStatus: "active",
  }))!;
}

/**
 * The event has the products `keys` as if its organiser had bought them at no cost: an invoice of
 * its own with those lines, for tests of what a product gives that are about something else than buying it.
 */
export async function grantProducts(event: Pick<Event, "id" | "creatorId">, keys: string[]) {
  await findOrInsertProviderInvoice(db(), {
    providerInvoiceId: `test-${crypto.randomUUID()}`,
    userId: event.creatorId,
    cartId: null,
    eventId: event.id,
    paymentId: null,
    lines: keys.map((key) => ({ key, name: key, quantity: 1, unitAmount: 0, amount: 0, discount: 0, net: 0, included: null })),
    subtotal: 0,
    discount: 0,
    tax: 0,
    total: 0,
    currency: "usd",
    taxLabel: "Tax",
    taxBasisPoints: 0,
    country: null,
    promoCode: null,
    paidAt: new Date(),
  });
}

/**
 * Posts one payment event to the webhook route as the payment service would, signed with the local
 * service's webhook secret; `id` names it (a new one when omitted). Resolves with the route's answer.
 */
export async function postPaymentEvent(
  client: TestClient,
  type: string,
  object: Record<string, unknown>,
  id = `evt_test_${crypto.randomBytes(8).toString("hex")}`,
) {
  const payload = JSON.stringify({
    id,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
  });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: localPaymentKeys().webhookSecret });
  const reply = await client.raw("POST", "/stripe/webhook", {
    body: payload,
    headers: { "content-type": "application/json", "stripe-signature": header },
  });
  return { id, status: reply.status, body: (await reply.json()) as { data?: { outcome?: string } } };
}

/**
 * The Stripe SDK pointed at the local payment service with its key, as the app's adapter is, for what
 * only tests ask of it: test clocks and customers made on them.
 */
export function localStripe() {
  const url = new URL(process.env.APP_URL ?? "");
  const node = Stripe.createNodeHttpClient();
  return new Stripe(localPaymentKeys().secretKey, {
    host: url.hostname,
    port: Number(url.port),
    protocol: "http",
    maxNetworkRetries: 0,
    telemetry: false,
    httpClient: {
      getClientName: () => node.getClientName(),
      makeRequest: (host, port, path, ...rest) => node.makeRequest(host, port, `/local-payments${path}`, ...rest),
    },
  });
}

/**
 * A test clock frozen at the real now, and the account's payment customer made on it (as Stripe's
 * test clocks are used): its membership's periods end when the test advances the clock.
 */
export async function accountOnTestClock(user: Pick<User, "id" | "email">) {
  const stripe = localStripe();
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: Math.floor(Date.now() / 1000) });
  const customer = await stripe.customers.create({ email: user.email, test_clock: clock.id });
  await updateUser(db(), user.id, { paymentCustomerId: customer.id });
  return {
    clock,
    customerId: customer.id,
    /** Moves the clock to `seconds` (Unix time): what falls due until then happens, and its events go out. */
    advanceTo: (seconds: number) => stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: seconds }),
  };
}
