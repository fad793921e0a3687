import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { checkoutPostcard } from "~/services/postcards/postcards.server";

/**
 * POST /api/v2/postcards/{id}/checkout (spec §7.2): locks the card and opens its payment, `{id, url}`:
 * the payment page. The payment webhook marks it paid and sends it to print.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    return ok(await checkoutPostcard(await getUser(request), params.id));
  },
});
