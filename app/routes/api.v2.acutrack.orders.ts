import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody, unauthorized } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { orderByPost } from "~/services/mail-orders/api.server";

/**
 * POST /api/v2/acutrack/orders `{eventId, quantity, name, line1, line2?, city, region?, postalCode, country}`
 * (spec §7.2): a DVD of the published video, posted to the address. Answers 201 with the order and
 * where to pay; the disc is ordered from the disc service once the payment arrives.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const user = await getUser(request);
    if (!user) throw unauthorized();
    return ok(await orderByPost(user, "dvd", await readBody(request)), { status: 201 });
  },
});
