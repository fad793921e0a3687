import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { apiResource } from "~/lib/http.server";
import { getAuthState, toAuthedUser } from "~/services/accounts/current-user.server";

/** Spec §7.1: `{success, data, isImpersonated}`; data is null when nobody is logged in. */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request }) {
    const { user, impersonator } = await getAuthState(request);
    return json(
      { success: true, data: user ? toAuthedUser(user) : null, isImpersonated: !!(user && impersonator) },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
});
