import type { ActionFunctionArgs } from "@remix-run/node";
import { emailOnlyInput } from "~/domain/account-rules";
import { apiResource, clientIp, ok, parseBody } from "~/lib/http.server";
import { requestPasswordReset } from "~/services/accounts/auth.server";

export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const { email } = await parseBody(request, emailOnlyInput);
    await requestPasswordReset(email, clientIp(request));
    return ok({ message: `If an account uses ${email}, we sent it a link to choose a new password.` });
  },
});
