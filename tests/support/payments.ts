import { payments, type Event } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { db } from "~/lib/db.server";
import { findEventById } from "~/models/event.server";
import type { TestClient } from "./http-client";
import { until } from "./wait";

/**
 * Pays for an organiser's Chorus as they would without JavaScript: Pay on the cart page, the test
 * card on the local payment service's page; resolves with the payment once the service's webhook
 * has marked the Chorus paid.
 */
export async function payThroughLocalService(organiser: TestClient, event: Pick<Event, "id" | "uuid">) {
  const cartPage = await (await organiser.raw("GET", `/e/${event.uuid}/checkout`)).text();
  const version = /name="version" value="(\d+)"/.exec(cartPage)?.[1];
  if (!version) throw new Error("the cart page has no version field");
  const pay = await organiser.form(`/e/${event.uuid}/checkout`, { intent: "pay", version, billingCountry: "" });
  const checkout = new URL(pay.headers.get("location") ?? "", "http://unknown");
  if (pay.status !== 302 || !checkout.pathname.startsWith("/local-payments/checkout/")) {
    throw new Error(`Pay did not open the payment page: ${pay.status} ${checkout.pathname}`);
  }
  const paid = await organiser.form(checkout.pathname, { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123" });
  if (paid.status !== 302) throw new Error(`the test card was not taken: ${paid.status}`);
  await until(async () => (await findEventById(db(), event.id))?.paid, { timeout: 20_000, what: "the webhook to mark the Chorus paid" });
  const [payment] = await db().select().from(payments).where(eq(payments.eventId, event.id));
  if (!payment) throw new Error("the Chorus is paid but no payment was recorded");
  return payment;
}
