import type { ActionFunctionArgs } from "@remix-run/node";
import { emailOnlyInput } from "~/domain/account-rules";
import { apiResource, clientIp, ok, parseBody } from "~/lib/http.server";
import { resendVerification } from "~/services/accounts/auth.server";

/** Answers the same whether or not the address has an account waiting. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const { email } = await parseBody(request, emailOnlyInput);
    await resendVerification(email, clientIp(request));
    return ok({ message: `If ${email} is waiting for confirmation, a new link is on its way.` });
  },
});
