import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { requireMedia } from "~/services/media/media-access.server";
import { mediaCredentialsOf } from "~/services/media/media-credentials.server";
import { renderEdit } from "~/services/media/media-versions.server";

const renderInput = z.object({ versionId: z.uuid("Give the id of an edit of this photo.").optional() });

/** POST /api/v2/media/{id}/pintura-render `{versionId?}`: the edit is rendered from the original and taken into use. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    const opened = await requireMedia(await mediaCredentialsOf(request), { id: params.id }, "edit-photo");
    const { versionId } = await parseBody(request, renderInput);
    return ok(await renderEdit(opened, versionId));
  },
});
