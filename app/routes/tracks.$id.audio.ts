import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/lib/auth.server";
import { isApiError } from "~/lib/http.server";
import { TRACK_RENDITION } from "~/media/track-audio.server";
import { openTrack } from "~/services/arrange/track-library.server";
import { serveStoredFile } from "~/services/media/media-files.server";

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
  const response = await serveStoredFile(request, track.renditionKey);
  // The rendition is our own AAC file (never what was uploaded): it plays inline as audio.
  if (response.ok) {
    response.headers.set("Content-Type", TRACK_RENDITION.contentType);
    response.headers.delete("Content-Disposition");
  }
  return response;
}
