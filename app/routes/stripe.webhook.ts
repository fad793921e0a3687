import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readRawBody } from "~/lib/http.server";
import { receivePaymentWebhook } from "~/services/payments/webhook.server";

const MAX_EVENT_BYTES = 1024 * 1024;

/**
 * The payment service's webhooks (Stripe's, or the local service's, signed the same way). The
 * signature covers the raw bytes, so the body is read here as it came, counted as it arrives (a 413
 * past MAX_EVENT_BYTES); no parser runs before it (server.ts), and the cross-origin check lets it
 * through (security.server.ts): the signature is what protects it (a 400 when it does not verify).
 * A failure to apply answers 500, so the event is sent again.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const raw = await readRawBody(request, MAX_EVENT_BYTES);
    const { eventId, outcome } = await receivePaymentWebhook(raw, request.headers.get("stripe-signature") ?? undefined);
    return ok({ received: true, eventId, outcome });
  },
});
