import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { createPostcard } from "~/services/postcards/postcards.server";

/**
 * POST /api/v2/postcards `{eventId, templateId, message?, address?}` (spec §7.2): a draft postcard on a
 * Chorus the caller manages (404 otherwise), with the links to its true preview.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    return ok(await createPostcard(await getUser(request), await readBody(request)), { status: 201 });
  },
});
