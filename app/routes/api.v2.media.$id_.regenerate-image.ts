import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { requireMedia } from "~/services/media/media-access.server";
import { regenerateMedia } from "~/services/media/media-actions.server";
import { mediaCredentialsOf } from "~/services/media/media-credentials.server";
import { mediaView } from "~/services/media/media-views.server";

/** PUT /api/v2/media/{id}/regenerate-image: derived images made again (a clip is processed again). */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async PUT({ request, params }) {
    return ok(mediaView(await regenerateMedia(await requireMedia(await mediaCredentialsOf(request), { id: params.id }, "regenerate"))));
  },
});
