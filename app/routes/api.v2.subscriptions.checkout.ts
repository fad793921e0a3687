import type { ActionFunctionArgs } from "@remix-run/node";
import { subscriptionCheckoutInput } from "~/domain/commerce/memberships";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { requireApiUser } from "~/services/accounts/current-user.server";
import { startMembershipCheckout } from "~/services/commerce/memberships.server";

/**
 * POST /api/v2/subscriptions/checkout (spec §7.2): a VIP membership's payment page for the
 * caller, `{ plan: "vip-monthly" | "vip-yearly" }`; a member already is answered 409.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const user = await requireApiUser(request);
    const { plan } = await parseBody(request, subscriptionCheckoutInput);
    const session = await startMembershipCheckout(user, plan);
    return ok({ id: session.id, url: session.url });
  },
});
