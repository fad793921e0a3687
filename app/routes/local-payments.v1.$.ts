import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { readBodyBytes } from "~/lib/request-body.server";
import { answerLocalPaymentsCall, bodyTooLarge, localApiParams } from "~/services/payments/local/api.server";
import { newId } from "~/services/payments/local/objects.server";

const MAX_BODY_BYTES = 256 * 1024;

/**
 * The local payment service's API (used when no STRIPE_SECRET_KEY is set): the SDK's calls land
 * here. Read as Stripe reads them (form-encoded, the query for GET and DELETE; a body counted as it
 * arrives, refused past MAX_BODY_BYTES), answered as Stripe answers (JSON with a request id, its
 * errors in Stripe's shape, which the SDK reads), 404 while Stripe is configured.
 */
async function handle({ request, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  const reply = await answerLocalPaymentsCall(async () => {
    const url = new URL(request.url);
    const bodyless = request.method === "GET" || request.method === "DELETE";
    const body = bodyless ? url.search.slice(1) : new TextDecoder().decode(await readBodyBytes(request, MAX_BODY_BYTES, bodyTooLarge));
    return {
      method: request.method,
      path: params["*"] ?? "",
      params: localApiParams(body),
      authorization: request.headers.get("authorization"),
      idempotencyKey: request.headers.get("idempotency-key"),
    };
  });
  if (!reply) return new Response("Not found", { status: 404 });
  return new Response(JSON.stringify(reply.body), {
    status: reply.status,
    headers: { "content-type": "application/json", "request-id": newId("req"), ...reply.headers },
  });
}
export { handle as loader, handle as action };
