import type { LoaderFunctionArgs } from "@remix-run/node";
import { toAuthedUser } from "~/lib/auth.server";
import { apiResource, ok } from "~/lib/http.server";
import { activateWithToken } from "~/services/accounts/auth.server";

export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ params }) {
    const result = await activateWithToken(params.token ?? "");
    return ok({ kind: result.kind, user: toAuthedUser(result.user) });
  },
});
