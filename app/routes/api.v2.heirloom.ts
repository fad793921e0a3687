import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody, unauthorized } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { orderByPost } from "~/services/mail-orders/api.server";

/**
 * POST /api/v2/heirloom `{eventId, quantity, name, line1, line2?, city, region?, postalCode, country}`
 * (spec §7.2): a printed photo book of the video's stills, posted to the address. Answers 201 with
 * the order and where to pay; the book is ordered from the printer once the payment arrives.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const user = await getUser(request);
    if (!user) throw unauthorized();
    return ok(await orderByPost(user, "keepsake", await readBody(request)), { status: 201 });
  },
});
