import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/lib/auth.server";
import { downloadResponse } from "~/lib/file-response.server";
import { apiResource } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { requireManager } from "~/services/events/events.server";
import { chorusPackage } from "~/services/staff/chorus-package.server";

/**
 * GET /api/admin/choruspackage/{eventId}: the originals, the video and the messages as one zip,
 * streamed. For staff (admins manage every event) and, as a download, for the event's organiser.
 */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const { event } = await requireManager(await getUser(request), uuidParam(params.id, "Chorus"));
    const { fileName, body } = await chorusPackage(event);
    return downloadResponse(body, { fileName, contentType: "application/zip" });
  },
});
