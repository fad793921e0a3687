import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody } from "~/lib/http.server";
import { asFormRequest, authenticator } from "~/services/accounts/authenticator.server";
import { startUserSession, toAuthedUser } from "~/services/accounts/current-user.server";

export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const user = await authenticator().authenticate("form", await asFormRequest(request, await readBody(request)));
    return ok({ user: toAuthedUser(user) }, { headers: { "Set-Cookie": await startUserSession(request, user.id) } });
  },
});
