import type { ActionFunctionArgs } from "@remix-run/node";
import { actionForChanges } from "~/domain/media-rules";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { requireMedia } from "~/services/media/media-access.server";
import { archiveMedia, changeMedia, mediaChangesSchema } from "~/services/media/media-actions.server";
import { mediaCredentialsOf } from "~/services/media/media-credentials.server";
import { mediaView } from "~/services/media/media-views.server";

export const { loader, action } = apiResource<ActionFunctionArgs>({
  /**
   * GET /api/v2/media/{id}: the item as its organiser, or the contributor who sent it, sees it: its
   * status, trim and the trim processing suggested, and any advice about it.
   */
  async GET({ request, params }) {
    const id = uuidParam(params.id, "photo or clip");
    const { record } = await requireMedia(await mediaCredentialsOf(request), { id }, "view");
    return ok(mediaView(record));
  },
  /** PUT /api/v2/media/{id}: caption and name (organiser or contributor); position, trim (or back to the suggested one) and hidden (organiser). */
  async PUT({ request, params }) {
    const id = uuidParam(params.id, "photo or clip");
    const changes = await parseBody(request, mediaChangesSchema);
    const opened = await requireMedia(await mediaCredentialsOf(request), { id }, actionForChanges(changes));
    return ok(mediaView(await changeMedia(opened, changes)));
  },
  /** DELETE /api/v2/media/{id}[?v=privateKey]: archived, so the organiser can restore it. */
  async DELETE({ request, params }) {
    const opened = await requireMedia(await mediaCredentialsOf(request), { id: params.id }, "archive");
    return ok(mediaView(await archiveMedia(opened)));
  },
});
