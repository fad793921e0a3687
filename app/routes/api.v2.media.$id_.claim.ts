import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { claimInput, claimMedia } from "~/services/media/media-actions.server";
import { uploadTokenOf } from "~/services/media/media-credentials.server";

/** PUT /api/v2/media/{id}/claim: a logged-in contributor takes their uploads into their account (token in X-Upload-Token or the body). */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async PUT({ request, params }) {
    const { uploadToken } = await parseBody(request, claimInput);
    return ok(await claimMedia(await getUser(request), params.id, uploadTokenOf(request) ?? uploadToken ?? null));
  },
});
