import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { requireMedia } from "~/services/media/media-access.server";
import { mediaCredentialsOf } from "~/services/media/media-credentials.server";
import { revertMedia } from "~/services/media/media-versions.server";

/** POST /api/v2/media/{id}/revert: the photo goes back to its original. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    return ok(await revertMedia(await requireMedia(await mediaCredentialsOf(request), { id: params.id }, "revert")));
  },
});
