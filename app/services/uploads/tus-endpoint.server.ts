import fs from "node:fs/promises";
import path from "node:path";
import { ERRORS, Server, type ServerOptions, type Upload } from "@tus/server";
import type { Media, User } from "drizzle/schema";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "~/lib/database-errors.server";
import { env } from "~/lib/env.server";
import { isApiError } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { stagingInBucket } from "~/services/uploads/bucket-staging.server";
import { authoriseUpload, formatBytes, keptUploadMetadata, recordUpload, uploadLimits } from "~/services/uploads/media-intake.server";
import { uploadStagingDir, uploadStore } from "~/services/uploads/upload-expiry.server";
import { UploadLocker } from "~/services/uploads/upload-lock.server";

export const TUS_PATH = "/uploads/tus";

/**
 * The one origin whose pages may read the upload endpoint's answers (Access-Control-Allow-Origin):
 * the app's own. tus's default, `*`, let any site's script read them.
 */
export const uploadsCorsOrigin = () => new URL(env().APP_URL).origin;

/** What every answer written beside tus's says for cross-origin reads (tus says the same with one allowed origin). */
export function corsOriginOf(tus: Server) {
  const allowed = tus.options.allowedOrigins;
  return Array.isArray(allowed) && allowed.length === 1 ? allowed[0]! : "*";
}

const errorBody = (code: string, message: string, fields?: Record<string, string>) =>
  JSON.stringify({ success: false, error: { code, message, ...(fields ? { fields } : {}) } });

const INTERNAL = { status_code: 500, body: errorBody("INTERNAL", "Something went wrong on our side. Please try again.") };

/**
 * What a hook's failure answers. tus would send an unknown error's message as the body, and a
 * database error's message is its statement with the upload's values: it is logged here and the
 * client gets the API's generic 500.
 */
export const tusErrorAnswer = (error: unknown) => {
  if (isApiError(error)) return { status_code: error.status, body: errorBody(error.code, error.message, error.fields) };
  if (isDatabaseUnavailable(error)) {
    // The browser's tus client tries again after a pause, as it does after any 5xx.
    console.warn("upload: the database is unavailable:", (error as Error).message);
    return { status_code: 503, body: errorBody("UNAVAILABLE", DATABASE_UNAVAILABLE_MESSAGE) };
  }
  console.error("upload failed:", error);
  return INTERNAL;
};

/**
 * Makes a finished upload a contribution: checks it as at its start (but a deadline passed while
 * its last bytes arrived), names its stored original and records its media row, which queues its
 * processing. Recording the same upload again returns its record (keyed by upload id), so the last
 * chunk's hook, a HEAD that finds the upload unrecorded and the sweep may all get here.
 */
export async function finishUpload(uploader: User | null, upload: Upload): Promise<Media> {
  const authorised = await authoriseUpload(uploader, upload.metadata ?? {}, upload.size, "finish");
  let key: string;
  if (stagingInBucket()) {
    // Staged in the bucket (S3 storage): the joined object, named by the upload, is the original.
    key = upload.id;
  } else {
    // Staged in local storage's own folder: the file is the original where it lies.
    key = `tus/${upload.id}`;
    const contentType = authorised.meta.filetype || "application/octet-stream";
    await fs.writeFile(path.join(uploadStagingDir(), `${upload.id}.meta.json`), JSON.stringify({ contentType }));
  }
  return recordUpload(authorised, { uploadId: upload.id, key, size: upload.size ?? upload.offset });
}

/** tus's own refusals carry a status and a plain body; anything else is unexpected. */
const isTusAnswer = (error: unknown): error is { status_code: number; body: string } =>
  typeof error === "object" && error !== null && typeof (error as { status_code?: unknown }).status_code === "number";

/** tus refuses an Upload-Length over `maxSize` itself, before our checks: the largest file of any kind. */
const largestUpload = () => Math.max(uploadLimits().maxVideoBytes, uploadLimits().maxPhotoBytes);

/**
 * The resumable upload endpoint (tus 1.0): chunks are appended to a file whose
 * offset survives dropped connections and server restarts. Checks happen when an
 * upload is created; the media record is made when its last byte arrives.
 */
export function createTusServer() {
  const onUploadCreate: ServerOptions["onUploadCreate"] = async (req, upload) => {
    try {
      const authorised = await authoriseUpload(await getUser(req), upload.metadata ?? {}, upload.size);
      // What tus keeps, and echoes to a HEAD, holds no secret: the uploader's token and the
      // recipient's key as their digests, the invitation as its invitee (docs/decisions/013).
      return { metadata: keptUploadMetadata(authorised, upload.metadata?.privateKey) };
    } catch (error) {
      throw tusErrorAnswer(error);
    }
  };

  const onUploadFinish: ServerOptions["onUploadFinish"] = async (req, upload) => {
    try {
      const media = await finishUpload(await getUser(req), upload);
      return {
        headers: { "Chorus-Media-Id": media.mediaUuid },
        body: JSON.stringify({ success: true, data: { mediaUuid: media.mediaUuid, status: media.status } }),
      };
    } catch (error) {
      throw tusErrorAnswer(error);
    }
  };

  return new Server({
    path: TUS_PATH,
    // Unfinished uploads expire UPLOAD_EXPIRY_HOURS after their last chunk (the uploads-expire sweep).
    datastore: uploadStore(),
    // One request at a time reads an upload's bytes, whichever web process it reaches (upload-lock.server.ts).
    locker: new UploadLocker(),
    relativeLocation: true,
    respectForwardedHeaders: env().TRUST_PROXY,
    maxSize: largestUpload,
    // A finished upload's file is the stored original (local storage): a late DELETE, such as a
    // cancel racing the last chunk, must not remove it from under its media record.
    disableTerminationForFinishedUploads: true,
    exposedHeaders: ["Chorus-Media-Id"],
    allowedOrigins: [uploadsCorsOrigin()],
    onUploadCreate,
    onUploadFinish,
    // tus answers an over-size Upload-Length in plain text; the browser shows only our JSON messages.
    // Any other error that is not one of tus's refusals (the store failing, say) is answered like a hook's.
    onResponseError: (_req, error) => {
      if (error === ERRORS.ERR_MAX_SIZE_EXCEEDED) {
        return {
          status_code: 413,
          body: errorBody("TOO_LARGE", `This file is too large: files can be up to ${formatBytes(largestUpload())}.`),
        };
      }
      return isTusAnswer(error) ? undefined : tusErrorAnswer(error);
    },
  });
}

/** Lets go of what the upload endpoint's locks hold open (its connection), as the server stops. */
export async function closeUploadLocks(tus: Server) {
  if (tus.options.locker instanceof UploadLocker) await tus.options.locker.close();
}
