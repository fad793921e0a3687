import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser } from "~/services/accounts/current-user.server";
import { finalizeFreeCart, requireCartManager } from "~/services/commerce/carts.server";

/** POST /api/v2/carts/{id}/finalize: settles a cart that costs nothing; one that costs something is a 402. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    const { cart } = await requireCartManager(await getUser(request), uuidParam(params.id, "cart"));
    const { view, invoice, alreadyFinalized } = await finalizeFreeCart(cart.id);
    return ok({ cart: view, invoiceNumber: invoice?.number ?? null, alreadyFinalized });
  },
});
