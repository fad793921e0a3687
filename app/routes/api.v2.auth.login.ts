import type { ActionFunctionArgs } from "@remix-run/node";
import { startUserSession, toAuthedUser } from "~/lib/auth.server";
import { asFormRequest, authenticator } from "~/lib/authenticator.server";
import { apiResource, ok, readBody } from "~/lib/http.server";

export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const user = await authenticator().authenticate("form", await asFormRequest(request, await readBody(request)));
    return ok({ user: toAuthedUser(user) }, { headers: { "Set-Cookie": await startUserSession(request, user.id) } });
  },
});
