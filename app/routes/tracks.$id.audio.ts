import type { LoaderFunctionArgs } from "@remix-run/node";
import { fileRequestOf, fileResponse } from "~/lib/file-response.server";
import { isApiError } from "~/lib/http.server";
import { TRACK_RENDITION } from "~/media/track-audio.server";
import { getUser } from "~/services/accounts/current-user.server";
import { openTrack } from "~/services/arrange/track-library.server";
import { storedFileToSend } from "~/services/media/media-files.server";

/**
 * A track's normalised audio for listening before choosing it, with range requests (seeking):
 * built-ins to anyone logged in, an own track to its owner.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getUser(request);
  if (!user) return new Response("Not found", { status: 404 });
  const track = await openTrack(user, params.id).catch((error: unknown) => {
    if (isApiError(error)) return null;
    throw error;
  });
  if (!track?.renditionKey || track.status !== "ready") return new Response("Not found", { status: 404 });
  const file = await storedFileToSend(track.renditionKey, fileRequestOf(request));
  // The rendition is our own AAC file (never what was uploaded): it plays inline as audio.
  if (!file || file.range === "unsatisfiable") return fileResponse(file);
  return fileResponse({ ...file, contentType: TRACK_RENDITION.contentType, attachmentName: null });
}
