import type { LoaderFunctionArgs } from "@remix-run/node";
import { isUuid } from "~/domain/uuid";
import { db } from "~/lib/db.server";
import { fileRequestOf, fileResponse, withheldFileResponse } from "~/lib/file-response.server";
import { isSignedUrl } from "~/lib/media-url.server";
import { findMediaByUuid } from "~/models/media.server";
import { getUser } from "~/services/accounts/current-user.server";
import { eventFilesWithheld } from "~/services/events/event-access.server";
import { keyOfVariant, storedFileToSend } from "~/services/media/media-files.server";

/** Media files, only through a signed link handed out by a page that checked the viewer. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (!isUuid(params.mediaUuid) || !isSignedUrl(url)) {
    return new Response("Not found", { status: 404 });
  }
  const record = await findMediaByUuid(db(), params.mediaUuid!);
  const key = record ? keyOfVariant(record, params.variant ?? "") : null;
  if (!record || !key) return new Response("Not found", { status: 404 });
  if (await eventFilesWithheld(record.eventId, () => getUser(request))) return withheldFileResponse();
  const download = url.searchParams.has("download") ? record.originalName || `${record.mediaUuid}` : undefined;
  return fileResponse(await storedFileToSend(key, fileRequestOf(request), { downloadName: download }));
}
