import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser } from "~/services/accounts/current-user.server";
import { availableProductsOf } from "~/services/commerce/cart-views.server";
import { requireManager } from "~/services/events/events.server";

/** GET /api/v2/stripe/available-products/{eventId}: the Chorus, its upsells and add-ons, with what each gives and costs. */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const { event } = await requireManager(await getUser(request), uuidParam(params.id, "Chorus"));
    return ok(await availableProductsOf(event));
  },
});
