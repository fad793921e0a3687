import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { startEmailVerification } from "~/services/accounts/auth.server";
import { requireApiUser } from "~/services/accounts/current-user.server";

/** Sends the logged-in user a fresh confirmation link for their own address. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const user = await requireApiUser(request);
    if (user.emailVerifiedAt) return ok({ alreadyVerified: true, message: "Your e-mail address is already confirmed." });
    await startEmailVerification(user);
    return ok({ alreadyVerified: false, message: `We sent a confirmation link to ${user.email}.` });
  },
});
