import type { ActionFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { apiResource, ok } from "~/lib/http.server";
import { makeCurrentVersion } from "~/models/published-media.server";
import { getUser } from "~/services/accounts/current-user.server";
import { publishedVersionView } from "~/services/render/published-video.server";
import { requirePublishedVersion } from "~/services/render/render-access.server";

/** PUT /api/v2/published-media/{id}/restore: the recipient's link goes back to this earlier version. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async PUT({ request, params }) {
    const { version, event } = await requirePublishedVersion(await getUser(request), params.id);
    await makeCurrentVersion(db(), version);
    return ok(publishedVersionView(version, { ...event, publishedMedia: version.id }));
  },
});
