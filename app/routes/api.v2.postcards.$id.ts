import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { changePostcard, managedPostcard, postcardView } from "~/services/postcards/postcards.server";
import { refreshMailing } from "~/services/postcards/sending.server";

/**
 * GET /api/v2/postcards/{id}: the card and where it is. PUT `{templateId?, message?, address?}`
 * (spec §7.2): changes a draft; 409 once checkout has started. 404 for anyone who does not manage its Chorus.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async GET({ request, params }) {
    const { postcard } = await managedPostcard(await getUser(request), params.id);
    return ok(postcardView((await refreshMailing(postcard.id)) ?? postcard));
  },
  async PUT({ request, params }) {
    return ok(await changePostcard(await getUser(request), params.id, await readBody(request)));
  },
});
