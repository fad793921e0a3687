import type { ActionFunctionArgs } from "@remix-run/node";
import { registerInput } from "~/domain/account-rules";
import { apiResource, clientIp, ok, parseBody } from "~/lib/http.server";
import { register } from "~/services/accounts/auth.server";
import { toAuthedUser } from "~/services/accounts/current-user.server";

export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const input = await parseBody(request, registerInput);
    const user = await register({ ...input, ip: clientIp(request) });
    return ok({ user: toAuthedUser(user), verificationSent: true }, { status: 201 });
  },
});
