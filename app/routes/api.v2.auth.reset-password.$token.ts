import type { ActionFunctionArgs } from "@remix-run/node";
import { resetPasswordInput } from "~/domain/account-rules";
import { apiResource, clientIp, ok, parseBody } from "~/lib/http.server";
import { resetPassword } from "~/services/accounts/auth.server";

export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    const { password } = await parseBody(request, resetPasswordInput);
    await resetPassword(params.token ?? "", password, clientIp(request));
    return ok({ message: "Your password is changed. Log in with the new one." });
  },
});
