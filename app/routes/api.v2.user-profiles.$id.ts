import type { LoaderFunctionArgs } from "@remix-run/node";
import { profileInput } from "~/domain/account-rules";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { changeProfile, readProfile } from "~/services/accounts/accounts.server";
import { requireApiUser } from "~/services/accounts/current-user.server";

export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const actor = await requireApiUser(request);
    return ok(await readProfile(actor, uuidParam(params.id, "profile")));
  },
  async PUT({ request, params }) {
    const actor = await requireApiUser(request);
    const id = uuidParam(params.id, "profile");
    return ok(await changeProfile(actor, id, await parseBody(request, profileInput.strict())));
  },
});
