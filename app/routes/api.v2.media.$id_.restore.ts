import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { requireMedia } from "~/services/media/media-access.server";
import { restoreMedia } from "~/services/media/media-actions.server";
import { mediaCredentialsOf } from "~/services/media/media-credentials.server";
import { mediaView } from "~/services/media/media-views.server";

/** PUT /api/v2/media/{id}/restore: the organiser brings an archived item back, at the end of the video. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async PUT({ request, params }) {
    return ok(mediaView(await restoreMedia(await requireMedia(await mediaCredentialsOf(request), { id: params.id }, "restore"))));
  },
});
