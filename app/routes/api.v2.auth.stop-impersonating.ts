import type { LoaderFunctionArgs } from "@remix-run/node";
import { toAuthedUser } from "~/lib/auth.server";
import { apiResource, ok, refuseCrossSiteNavigation } from "~/lib/http.server";
import { stopImpersonating } from "~/services/staff/impersonation.server";

export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request }) {
    refuseCrossSiteNavigation(request);
    const { admin, setCookie } = await stopImpersonating(request);
    return ok({ user: toAuthedUser(admin) }, { headers: { "Set-Cookie": setCookie } });
  },
});
