import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { multipartPostOf } from "~/lib/multipart.server";
import { requireApiUser } from "~/services/accounts/current-user.server";
import { listLibrary, trackView } from "~/services/arrange/track-library.server";
import { receiveTrackUpload } from "~/services/uploads/track-upload.server";

export const { loader, action } = apiResource<ActionFunctionArgs>({
  /** GET /api/v2/tracks: the built-in tracks and the user's own. */
  async GET({ request }) {
    const user = await requireApiUser(request);
    return ok((await listLibrary(user)).map(trackView));
  },
  /** POST /api/v2/tracks (multipart: `file`, `title`): an own track, processed by a job (`track:updated` follows). */
  async POST({ request }) {
    const user = await requireApiUser(request);
    return ok(trackView(await receiveTrackUpload(multipartPostOf(request), user)), { status: 202 });
  },
});
