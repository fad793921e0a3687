import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { requireCartManager } from "~/services/commerce/carts.server";
import { createCartCheckoutSession } from "~/services/commerce/checkout.server";

const checkoutInput = z.object({
  cartId: z.uuid({ error: "Give the id of your Chorus's cart." }),
  version: z.number({ error: "The cart's version is a whole number." }).int().min(1).optional(),
});

/**
 * POST /api/v2/stripe/create-checkout-session `{cartId, version?}` (spec §7.2): the payment page for
 * the organiser's cart, `{id, url}`. Amounts come from the cart as the server prices it; the same
 * cart version always gives the same session, so a second press pays nothing twice.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const { cartId, version } = await parseBody(request, checkoutInput);
    const { cart } = await requireCartManager(await getUser(request), cartId);
    return ok(await createCartCheckoutSession(cart, version));
  },
});
