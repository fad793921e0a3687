import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { requireMedia } from "~/services/media/media-access.server";
import { mediaCredentialsOf } from "~/services/media/media-credentials.server";
import { upscaleMedia } from "~/services/media/media-versions.server";

/** POST /api/v2/media/{id}/upscale: an enlarged version of a small photo, for the organiser to review. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    return ok(await upscaleMedia(await requireMedia(await mediaCredentialsOf(request), { id: params.id }, "upscale")), { status: 201 });
  },
});
