import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { fileRequestOf, fileResponse } from "~/lib/file-response.server";
import { apiRoute } from "~/lib/http.server";
import { findMediaByUploadId } from "~/models/media.server";
import { mediaNotFound, requireMedia } from "~/services/media/media-access.server";
import { mediaCredentialsOf } from "~/services/media/media-credentials.server";
import { storedFileToSend } from "~/services/media/media-files.server";

/** The ids the upload store makes; anything else is no upload. */
const UPLOAD_ID = /^[\w-]{1,100}$/;

/**
 * A finished upload read back at its upload URL (tus's GET): the original, to its uploader (the
 * X-Upload-Token their browser kept) or the organiser, range-served like every stored file.
 * Anyone else learns nothing about it (docs/decisions/013-reading-back-uploads.md).
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, params }) => {
  const id = params.id ?? "";
  const found = UPLOAD_ID.test(id) ? await findMediaByUploadId(db(), id) : null;
  if (!found) throw mediaNotFound();
  const { record } = await requireMedia(await mediaCredentialsOf(request), { id: found.id }, "view");
  return fileResponse(
    await storedFileToSend(record.originalKey, fileRequestOf(request), { downloadName: record.originalName || undefined }),
  );
});
