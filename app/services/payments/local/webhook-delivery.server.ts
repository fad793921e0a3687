import Stripe from "stripe";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { findLocalPaymentObject } from "~/models/local-payment.server";
import { localPaymentsActive } from "../provider.server";
import { localPaymentKeys } from "./keys.server";

// The local payment service's webhooks: its events reach our own /stripe/webhook route over HTTP,
// signed as Stripe signs them, from a background job that tries again until the route takes them.

/**
 * Sends one event to our webhook route as Stripe does: a JSON body signed with the webhook secret
 * in a `Stripe-Signature` header. Anything but a 2xx throws, so the job is tried again later.
 */
export async function deliverLocalPaymentEvent(eventId: string) {
  // Stripe took over since the event was made: it can no longer be verified, nor should it be.
  if (!localPaymentsActive()) return;
  const event = await findLocalPaymentObject(db(), eventId, "event");
  if (!event) throw new Error(`There is no local payment event ${eventId}.`);
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: localPaymentKeys().webhookSecret });
  const response = await fetch(`${env().APP_URL}/stripe/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature },
    body: payload,
    signal: AbortSignal.timeout(30_000),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`The webhook route answered ${response.status} to ${String(event.type)} ${eventId}.`);
}
