import type { LoaderFunctionArgs } from "@remix-run/node";
import { isUuid } from "~/domain/uuid";
import { db } from "~/lib/db.server";
import { fileAnswerResponse, fileRequestOf } from "~/lib/file-response.server";
import { isSignedUrl } from "~/lib/media-url.server";
import { findRenderJob } from "~/models/render-job.server";
import { getUser } from "~/services/accounts/current-user.server";
import { videoFileToSend } from "~/services/media/video-file.server";

/**
 * A finished render (before it is published) or its poster, only through a signed link a page
 * handed out, and only to those payment lets watch it (docs/decisions/045).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (!isUuid(params.id) || !isSignedUrl(url)) {
    return new Response("Not found", { status: 404 });
  }
  const found = await findRenderJob(db(), params.id);
  const viewer = () => getUser(request);
  const download = url.searchParams.has("download");
  const answer = await videoFileToSend(
    found && { eventId: found.eventId, video: found.outputKey, poster: found.posterKey },
    params.variant,
    { viewer, download, ...fileRequestOf(request) },
  );
  return fileAnswerResponse(answer);
}
