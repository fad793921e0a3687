import type { ActionFunctionArgs } from "@remix-run/node";
import { isInvalidWebhookSignature } from "~/integrations/payments/payments-port";
import { ApiError, apiResource, ok, readRawBody } from "~/lib/http.server";
import { receivePaymentWebhook } from "~/services/payments/webhook.server";

const MAX_EVENT_BYTES = 1024 * 1024;

/**
 * The payment service's webhooks (Stripe's, or the local service's, signed the same way). The
 * signature covers the raw bytes, so the body is read here as it came, counted as it arrives (a 413
 * past MAX_EVENT_BYTES); no parser runs before it (server.ts), and the cross-origin check lets it
 * through (security.server.ts): the signature is what protects it. A failure to apply answers 500,
 * so the event is sent again.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const raw = await readRawBody(request, MAX_EVENT_BYTES);
    try {
      const { eventId, outcome } = await receivePaymentWebhook(raw, request.headers.get("stripe-signature") ?? undefined);
      return ok({ received: true, eventId, outcome });
    } catch (error) {
      if (isInvalidWebhookSignature(error)) {
        throw new ApiError(400, "INVALID_SIGNATURE", "The webhook's signature does not verify.");
      }
      throw error;
    }
  },
});
