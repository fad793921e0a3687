import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { fileRequestOf, fileResponse, paymentRequiredFileResponse, withheldFileResponse } from "~/lib/file-response.server";
import { verifyMediaUrl } from "~/lib/media-url.server";
import { findPublishedMedia } from "~/models/published-media.server";
import { getUser } from "~/services/accounts/current-user.server";
import { videoFileRefusal } from "~/services/commerce/unlock.server";
import { eventFilesWithheld } from "~/services/events/event-access.server";
import { storedFileToSend } from "~/services/media/media-files.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A published video or its poster, only through a signed link a page handed out, and only to those
 * payment lets watch it (docs/decisions/045): the link alone does not open a locked Chorus's video.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (!UUID.test(params.id ?? "") || !verifyMediaUrl(url.pathname, url.searchParams.get("exp"), url.searchParams.get("sig"))) {
    return new Response("Not found", { status: 404 });
  }
  const found = await findPublishedMedia(db(), params.id!);
  const key = params.variant === "video" ? found?.videoKey : params.variant === "poster" ? found?.posterKey : null;
  if (!found || !key) return new Response("Not found", { status: 404 });
  const viewer = () => getUser(request);
  if (await eventFilesWithheld(found.eventId, viewer)) return withheldFileResponse();
  const download = url.searchParams.has("download");
  const refusal = await videoFileRefusal(found.eventId, viewer, { download });
  if (refusal) return paymentRequiredFileResponse(refusal);
  return fileResponse(await storedFileToSend(key, fileRequestOf(request), { downloadName: download ? "chorus-video.mp4" : undefined }));
}
