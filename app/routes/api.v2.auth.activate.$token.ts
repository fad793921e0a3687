import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { activateWithToken } from "~/services/accounts/auth.server";
import { toAuthedUser } from "~/services/accounts/current-user.server";

export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ params }) {
    const result = await activateWithToken(params.token ?? "");
    return ok({ kind: result.kind, user: toAuthedUser(result.user) });
  },
});
