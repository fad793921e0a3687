import type { LoaderFunctionArgs } from "@remix-run/node";
import { isUuid } from "~/domain/uuid";
import { db } from "~/lib/db.server";
import { fileRequestOf, fileResponse, paymentRequiredFileResponse, withheldFileResponse } from "~/lib/file-response.server";
import { verifyMediaUrl } from "~/lib/media-url.server";
import { findPublishedMedia } from "~/models/published-media.server";
import { getUser } from "~/services/accounts/current-user.server";
import { videoFileRefusal } from "~/services/commerce/unlock.server";
import { eventFilesWithheld } from "~/services/events/event-access.server";
import { ladderFileToSend } from "~/services/render/video-ladder.server";

/**
 * A file of a published video's HLS ladder (docs/decisions/036), only through a signed link to its
 * folder that a page handed out, under the same rules as the video's MP4: a Chorus taken down
 * answers 410, and a locked one 402 to anyone but its organiser and staff (docs/decisions/045).
 * Segments never change, so a browser keeps them; playlists carry the link's signature.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const folder = `/videos/${params.id}/hls`;
  if (!isUuid(params.id) || !verifyMediaUrl(folder, url.searchParams.get("exp"), url.searchParams.get("sig"))) {
    return new Response("Not found", { status: 404 });
  }
  const found = await findPublishedMedia(db(), params.id!);
  if (!found?.ladder) return new Response("Not found", { status: 404 });
  const viewer = () => getUser(request);
  if (await eventFilesWithheld(found.eventId, viewer)) return withheldFileResponse();
  const refusal = await videoFileRefusal(found.eventId, viewer, { download: false });
  if (refusal) return paymentRequiredFileResponse(refusal);
  const query = new URLSearchParams({ exp: url.searchParams.get("exp")!, sig: url.searchParams.get("sig")! }).toString();
  const sent = await ladderFileToSend(found, params.file ?? "", { ...fileRequestOf(request), query });
  const response = fileResponse(sent?.file ?? null);
  if (sent?.immutable && response.ok) response.headers.set("Cache-Control", "private, max-age=31536000, immutable");
  return response;
}
