import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { requireMedia } from "~/services/media/media-access.server";
import { mediaCredentialsOf } from "~/services/media/media-credentials.server";
import { reviewUpscale } from "~/services/media/media-versions.server";

const reviewInput = z.object({ approved: z.boolean({ error: "Say whether the upscaled photo is approved (true or false)." }) });

/** POST /api/v2/media/{id}/upscale-reviewed `{approved}`: the pending upscale is taken into use, or turned down. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    const opened = await requireMedia(await mediaCredentialsOf(request), { id: params.id }, "review-upscale");
    const { approved } = await parseBody(request, reviewInput);
    return ok(await reviewUpscale(opened, approved));
  },
});
