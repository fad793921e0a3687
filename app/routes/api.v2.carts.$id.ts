import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser } from "~/services/accounts/current-user.server";
import { parseCartUpdate } from "~/services/commerce/cart-input.server";
import { cartViewOf } from "~/services/commerce/cart-views.server";
import { requireCartManager, updateCart } from "~/services/commerce/carts.server";

/** GET and PUT /api/v2/carts/{id}: the cart priced now; change its products, promo code or billing country. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async GET({ request, params }) {
    const { cart } = await requireCartManager(await getUser(request), uuidParam(params.id, "cart"));
    return ok(await cartViewOf(cart));
  },
  async PUT({ request, params }) {
    const { cart, event } = await requireCartManager(await getUser(request), uuidParam(params.id, "cart"));
    return ok(await updateCart(cart, event, parseCartUpdate(await readBody(request))));
  },
});
