import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { requireMedia } from "~/services/media/media-access.server";
import { mediaCredentialsOf } from "~/services/media/media-credentials.server";
import { mediaView } from "~/services/media/media-views.server";

/**
 * GET /api/uploads/{mediaUuid}: how one upload is doing, for the organiser or the browser
 * that sent it (X-Upload-Token). Anyone else is told it does not exist.
 */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const { record } = await requireMedia(await mediaCredentialsOf(request), { mediaUuid: params.id }, "view");
    return ok(mediaView(record), { headers: { "Cache-Control": "private, no-store" } });
  },
});
