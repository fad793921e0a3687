import crypto from "node:crypto";
import { payments, type Event } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { db } from "~/lib/db.server";
import { findEventById } from "~/models/event.server";
import { findOrInsertProviderInvoice } from "~/models/payment.server";
import type { TestClient } from "./http-client";
import { until } from "./wait";

/**
 * Pay on the cart page, as an organiser without JavaScript would: Pay with `ticked` (the form's
 * boxes, as `selected`), then the test card on the local payment service's page. Resolves once the
 * card is taken (the webhook follows).
 */
export async function payOnCartPage(organiser: TestClient, event: Pick<Event, "uuid">, ticked: Record<string, string> = {}) {
  const cartPage = await (await organiser.raw("GET", `/e/${event.uuid}/checkout`)).text();
  const version = /name="version" value="(\d+)"/.exec(cartPage)?.[1];
  if (!version) throw new Error("the cart page has no version field");
  const pay = await organiser.form(`/e/${event.uuid}/checkout`, { intent: "pay", version, billingCountry: "", ...ticked });
  const checkout = new URL(pay.headers.get("location") ?? "", "http://unknown");
  if (pay.status !== 302 || !checkout.pathname.startsWith("/local-payments/checkout/")) {
    throw new Error(`Pay did not open the payment page: ${pay.status} ${checkout.pathname}`);
  }
  const paid = await organiser.form(checkout.pathname, { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123" });
  if (paid.status !== 302) throw new Error(`the test card was not taken: ${paid.status}`);
}

/**
 * Pays for an organiser's Chorus as they would without JavaScript: Pay on the cart page, the test
 * card on the local payment service's page; resolves with the payment once the service's webhook
 * has marked the Chorus paid.
 */
export async function payThroughLocalService(organiser: TestClient, event: Pick<Event, "id" | "uuid">) {
  await payOnCartPage(organiser, event);
  await until(async () => (await findEventById(db(), event.id))?.paid, { timeout: 20_000, what: "the webhook to mark the Chorus paid" });
  const [payment] = await db().select().from(payments).where(eq(payments.eventId, event.id));
  if (!payment) throw new Error("the Chorus is paid but no payment was recorded");
  return payment;
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
