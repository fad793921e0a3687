import type { ActionFunctionArgs } from "@remix-run/node";
import { changePasswordInput } from "~/domain/account-rules";
import { apiResource, notFound, ok, parseBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { changePassword } from "~/services/accounts/auth.server";
import { getAuthState, requireApiUser } from "~/services/accounts/current-user.server";

export const { loader, action } = apiResource<ActionFunctionArgs>({
  async PUT({ request, params }) {
    const user = await requireApiUser(request);
    if (uuidParam(params.id, "user") !== user.id) throw notFound("There is no user with this id.");
    const input = await parseBody(request, changePasswordInput);
    const { session } = await getAuthState(request);
    await changePassword(user, { ...input, sessionId: session.id });
    return ok({ message: "Your password is changed. Other devices were logged out." });
  },
});
