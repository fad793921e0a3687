import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { photoEditsSchema } from "~/media/photo-edits";
import { requireMedia } from "~/services/media/media-access.server";
import { mediaCredentialsOf } from "~/services/media/media-credentials.server";
import { saveEdit } from "~/services/media/media-versions.server";

const editInput = z.object({ edits: photoEditsSchema });

/** POST /api/v2/media/{id}/pintura-edit `{edits}`: the image editor's settings, kept until rendered. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    const opened = await requireMedia(await mediaCredentialsOf(request), { id: params.id }, "edit-photo");
    const { edits } = await parseBody(request, editInput);
    return ok(await saveEdit(opened, edits), { status: 201 });
  },
});
