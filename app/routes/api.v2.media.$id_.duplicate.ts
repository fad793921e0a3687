import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { requireMedia } from "~/services/media/media-access.server";
import { duplicateMedia } from "~/services/media/media-actions.server";
import { mediaCredentialsOf } from "~/services/media/media-credentials.server";
import { mediaView } from "~/services/media/media-views.server";

/** POST /api/v2/media/{id}/duplicate: the organiser shows an item twice; the copy shares its files. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    return ok(mediaView(await duplicateMedia(await requireMedia(await mediaCredentialsOf(request), { id: params.id }, "duplicate"))), {
      status: 201,
    });
  },
});
