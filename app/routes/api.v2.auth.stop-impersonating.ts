import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiResource, ok, refuseCrossSiteNavigation } from "~/lib/http.server";
import { getAuthState, startUserSession, toAuthedUser } from "~/services/accounts/current-user.server";
import { stopImpersonating } from "~/services/staff/impersonation.server";

export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request }) {
    refuseCrossSiteNavigation(request);
    const { admin } = stopImpersonating(await getAuthState(request));
    const setCookie = await startUserSession(request, admin.id);
    return ok({ user: toAuthedUser(admin) }, { headers: { "Set-Cookie": setCookie } });
  },
});
