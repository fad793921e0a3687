import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readRawBody } from "~/lib/http.server";
import { receiveLobWebhook } from "~/services/postcards/print-webhook.server";

const MAX_EVENT_BYTES = 256 * 1024;

/**
 * Lob's webhooks about postcards. The signature covers the raw bytes, so the body is read here as
 * it came, counted as it arrives (a 413 past MAX_EVENT_BYTES; no parser runs before it, server.ts),
 * and the cross-origin check lets it through (security.server.ts): the signature is what protects
 * it (a 400 when it does not verify). A failure to apply answers 500, so Lob sends the event again.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const raw = await readRawBody(request, MAX_EVENT_BYTES);
    const headers = { signature: request.headers.get("lob-signature"), timestamp: request.headers.get("lob-signature-timestamp") };
    return ok({ received: true, ...(await receiveLobWebhook(raw, headers)) });
  },
});
