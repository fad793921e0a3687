import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiResource, ok, refuseCrossSiteNavigation } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getAuthState, startUserSession, toAuthedUser } from "~/services/accounts/current-user.server";
import { impersonate } from "~/services/staff/impersonation.server";

/** Admins only. A GET by the spec, so it refuses being triggered from another site. */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    refuseCrossSiteNavigation(request);
    const { admin, target } = await impersonate(await getAuthState(request), uuidParam(params.id, "user"));
    const setCookie = await startUserSession(request, target.id, admin.id);
    return ok({ user: toAuthedUser(target) }, { headers: { "Set-Cookie": setCookie } });
  },
});
