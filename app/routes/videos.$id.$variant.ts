import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { verifyMediaUrl } from "~/lib/media-url.server";
import { findPublishedMedia } from "~/models/published-media.server";
import { refuseLockedDownload } from "~/services/commerce/unlock.server";
import { serveStoredFile } from "~/services/media/media-files.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A published video or its poster, only through a signed link a page handed out. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (!UUID.test(params.id ?? "") || !verifyMediaUrl(url.pathname, url.searchParams.get("exp"), url.searchParams.get("sig"))) {
    return new Response("Not found", { status: 404 });
  }
  const found = await findPublishedMedia(db(), params.id!);
  const key = params.variant === "video" ? found?.videoKey : params.variant === "poster" ? found?.posterKey : null;
  if (!found || !key) return new Response("Not found", { status: 404 });
  const download = url.searchParams.has("download");
  if (download) {
    const refused = await refuseLockedDownload(found.eventId);
    if (refused) return refused;
  }
  return serveStoredFile(request, key, { downloadName: download ? "chorus-video.mp4" : undefined });
}
