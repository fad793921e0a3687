import type { LoaderFunctionArgs } from "@remix-run/node";
import { downloadResponse } from "~/lib/file-response.server";
import { apiResource } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { ORIGINALS_ZIP, requireKeepsake } from "~/services/commerce/keepsakes.server";
import { originalsZipOf } from "~/services/media/originals-zip.server";

/** GET /e/{uuid}/originals.zip: every photo and clip as it was sent, for a Chorus with the add-on (402 before, 404 for others). */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const event = await requireKeepsake(await getUser(request), params.uuid, ORIGINALS_ZIP);
    const { fileName, body } = await originalsZipOf(event);
    return downloadResponse(body, { fileName, contentType: "application/zip" });
  },
});
