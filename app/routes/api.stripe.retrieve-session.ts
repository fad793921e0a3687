import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { checkoutPayerOf } from "~/services/payments/checkout-cookie.server";
import { checkoutReturn } from "~/services/payments/checkout-return.server";

/**
 * Spec §7.2: a payment's state after its payment page, `confirming` until our webhook has taken it;
 * told to its payer alone, a 404 to anyone else holding its id.
 */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request }) {
    return ok(await checkoutReturn(new URL(request.url).searchParams.get("session_id"), await checkoutPayerOf(request)));
  },
});
