import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { retryInput, retryMedia } from "~/services/media/media-actions.server";
import { mediaView } from "~/services/media/media-views.server";

/** POST /api/v2/media `{eventId, mediaId}`: the organiser has a failed upload processed again (why this payload: see retryMedia). */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const input = await parseBody(request, retryInput);
    return ok(mediaView(await retryMedia(await getUser(request), input)), { status: 202 });
  },
});
