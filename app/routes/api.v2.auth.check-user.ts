import type { ActionFunctionArgs } from "@remix-run/node";
import { emailOnlyInput } from "~/domain/account-rules";
import { apiResource, clientIp, ok, parseBody } from "~/lib/http.server";
import { checkUser } from "~/services/accounts/auth.server";

/** Lets a form choose between "log in" and "create account"; rate-limited per caller. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const { email } = await parseBody(request, emailOnlyInput);
    return ok(await checkUser(email, clientIp(request)));
  },
});
