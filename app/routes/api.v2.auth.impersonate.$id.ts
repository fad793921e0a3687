import type { LoaderFunctionArgs } from "@remix-run/node";
import { toAuthedUser } from "~/lib/auth.server";
import { apiResource, ok, refuseCrossSiteNavigation } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { impersonate } from "~/services/staff/impersonation.server";

/** Admins only. A GET by the spec, so it refuses being triggered from another site. */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    refuseCrossSiteNavigation(request);
    const { target, setCookie } = await impersonate(request, uuidParam(params.id, "user"));
    return ok({ user: toAuthedUser(target) }, { headers: { "Set-Cookie": setCookie } });
  },
});
