import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { requireApiUser } from "~/services/accounts/current-user.server";
import { openTrack, removeTrack, trackView } from "~/services/arrange/track-library.server";

export const { loader, action } = apiResource<ActionFunctionArgs>({
  /** GET /api/v2/tracks/{id}: a built-in or one of the user's own. */
  async GET({ request, params }) {
    const user = await requireApiUser(request);
    return ok(trackView(await openTrack(user, params.id)));
  },
  /** DELETE /api/v2/tracks/{id}: the user's own track leaves their library; built-ins cannot be deleted (403). */
  async DELETE({ request, params }) {
    const user = await requireApiUser(request);
    return ok(trackView(await removeTrack(user, params.id)));
  },
});
