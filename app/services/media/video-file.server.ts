import type { User } from "drizzle/schema";
import type { FileAnswer } from "~/lib/file-response.server";
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
 * What a signed link to a made video (`variant` "video") or its poster gets, for `files` found by the
 * link's id: the file only for those payment lets watch it (docs/decisions/045), as the link alone
 * does not open a locked Chorus's video; withheld for a Chorus taken down; no file when there is none.
 * The route turns it into the answer (`fileAnswerResponse`).
 */
export async function videoFileToSend(
  files: VideoFiles | null | undefined,
  variant: string | undefined,
  request: { viewer: () => Promise<User | null>; range: string | null; withBody: boolean; download: boolean },
): Promise<FileAnswer> {
  const key = variant === "video" ? files?.video : variant === "poster" ? files?.poster : null;
  if (!files || !key) return { kind: "file", file: null };
  if (await eventFilesWithheld(files.eventId, request.viewer)) return { kind: "withheld" };
  const refusal = await videoFileRefusal(files.eventId, request.viewer, { download: request.download });
  if (refusal) return { kind: "payment-required", reason: refusal };
  const downloadName = request.download ? "chorus-video.mp4" : undefined;
  return { kind: "file", file: await storedFileToSend(key, request, { downloadName }) };
}
