import type { ActionFunctionArgs } from "@remix-run/node";
import { changeEmailInput } from "~/domain/account-rules";
import { apiResource, notFound, ok, parseBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { requestEmailChange } from "~/services/accounts/auth.server";
import { requireApiUser } from "~/services/accounts/current-user.server";

/** Needs the account's password, so only its owner can ask; the change waits for the link. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async PUT({ request, params }) {
    const user = await requireApiUser(request);
    if (uuidParam(params.id, "user") !== user.id) throw notFound("There is no user with this id.");
    const input = await parseBody(request, changeEmailInput);
    await requestEmailChange(user, input);
    return ok({ pendingEmail: input.email, message: `We sent a confirmation link to ${input.email}.` });
  },
});
