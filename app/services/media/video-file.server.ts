import { fileRequestOf, fileResponse, paymentRequiredFileResponse, withheldFileResponse } from "~/lib/file-response.server";
import { getUser } from "~/services/accounts/current-user.server";
import { videoFileRefusal } from "~/services/commerce/unlock.server";
import { eventFilesWithheld } from "~/services/events/event-access.server";
import { storedFileToSend } from "./media-files.server";

/** Where a made video keeps its files: a published version's, or a finished render's before it is published. */
interface VideoFiles {
  eventId: string;
  video: string | null;
  poster: string | null;
}

/**
 * The answer to a signed link to a made video (`variant` "video") or its poster, for `files` found by
 * the link's id: only to those payment lets watch it (docs/decisions/045), as the link alone does not
 * open a locked Chorus's video; 410 for a Chorus taken down, 404 for no such file.
 */
export async function videoFileResponse(request: Request, files: VideoFiles | null | undefined, variant: string | undefined) {
  const key = variant === "video" ? files?.video : variant === "poster" ? files?.poster : null;
  if (!files || !key) return new Response("Not found", { status: 404 });
  const viewer = () => getUser(request);
  if (await eventFilesWithheld(files.eventId, viewer)) return withheldFileResponse();
  const download = new URL(request.url).searchParams.has("download");
  const refusal = await videoFileRefusal(files.eventId, viewer, { download });
  if (refusal) return paymentRequiredFileResponse(refusal);
  return fileResponse(await storedFileToSend(key, fileRequestOf(request), { downloadName: download ? "chorus-video.mp4" : undefined }));
}
