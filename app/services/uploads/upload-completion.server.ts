import fs from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { TUS_RESUMABLE, type Server, type Upload } from "@tus/server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { isApiError } from "~/lib/http.server";
import { findMediaByUploadId, listRecordedUploadIds } from "~/models/media.server";
import { getUser } from "~/services/accounts/current-user.server";
import { BucketStagingStore } from "~/services/uploads/bucket-staging.server";
import { finishUpload, TUS_PATH, tusErrorAnswer } from "~/services/uploads/tus-endpoint.server";
import { uploadStagingDir } from "~/services/uploads/upload-expiry.server";

// A complete upload always becomes a contribution (docs/decisions/020). The last chunk's hook
// records the media row; if the process dies after the last byte reached the disk and before the
// row was written, or the hook fails (the database away for a moment), the upload is complete on
// disk with no row. tus-js-client's retry then asks for the offset (HEAD), sees it equal to the
// length and reports success: the contributor would be told their clip arrived while nobody ever
// sees it. So a HEAD of a complete upload without its row finishes the intake first, and a sweep
// does the same for complete uploads nobody asks about (the browser was closed).

const UPLOAD_ID = /^[\w-]+$/;

const isComplete = (upload: Upload) => upload.size !== undefined && upload.offset === upload.size;

/** The upload named by a tus address (`/uploads/tus/{id}`), or null. */
export function uploadIdOf(url: string | undefined) {
  const pathname = (url ?? "").split("?")[0]!;
  const id = pathname.startsWith(`${TUS_PATH}/`) ? pathname.slice(TUS_PATH.length + 1) : "";
  return UPLOAD_ID.test(id) ? id : null;
}

/** Who asks, for the intake's check: only the session cookie counts. */
function requestOf(req: IncomingMessage) {
  return new Request(new URL(req.url ?? "/", env().APP_URL), { headers: { cookie: req.headers.cookie ?? "" } });
}

/**
 * Before tus answers a HEAD: a complete upload without its media row is recorded now, and the
 * answer names its item (Chorus-Media-Id, as the last chunk's answer does). If that fails, the HEAD
 * is answered with the failure's status instead of the offset — the browser tries again after a
 * 5xx — so a client is never told an upload succeeded that is not a contribution. Resolves to
 * whether it answered the request itself.
 */
export function finishOnHead(tus: Server) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const id = uploadIdOf(req.url);
    if (!id) return false;
    const upload = await tus.datastore.getUpload(id).catch(() => null);
    if (!upload || !isComplete(upload)) return false;
    try {
      const media = (await findMediaByUploadId(db(), id)) ?? (await finishUpload(await getUser(requestOf(req)), upload));
      res.setHeader("Chorus-Media-Id", media.mediaUuid);
      return false;
    } catch (error) {
      const { status_code } = tusErrorAnswer(error);
      // A HEAD answer has no body: the status is what the client goes by.
      res.writeHead(status_code, { "Tus-Resumable": TUS_RESUMABLE, "Cache-Control": "no-store" }).end();
      return true;
    }
  };
}

/**
 * Records the complete staged uploads that have no media row: those whose last byte arrived more
 * than `graceMs` ago (an upload finishing now is its own request's to record) and within the
 * expiry period (older ones were looked at for long enough). Resolves to how many it recorded.
 */
export async function finishStagedUploads(tus: Server, graceMs: number) {
  const now = Date.now();
  const oldest = now - env().UPLOAD_EXPIRY_HOURS * 60 * 60 * 1000;
  const complete: Upload[] = [];
  for (const id of await stagedUploadIds(tus, oldest, now - graceMs)) {
    const upload = await tus.datastore.getUpload(id).catch(() => null);
    const lastWrite = upload?.creation_date ? Date.parse(upload.creation_date) : 0;
    if (upload && isComplete(upload) && lastWrite < now - graceMs && lastWrite > oldest) complete.push(upload);
  }
  const recorded = await listRecordedUploadIds(
    db(),
    complete.map((upload) => upload.id),
  );
  let finished = 0;
  for (const upload of complete.filter((u) => !recorded.has(u.id))) {
    try {
      await finishUpload(null, upload);
      finished++;
    } catch (error) {
      // Refused now (its Chorus was deleted, say): it stays unrecorded, and is looked at again
      // until it is older than the expiry period.
      if (isApiError(error)) console.warn(`upload ${upload.id}: complete but refused: ${error.message}`);
      else throw error;
    }
  }
  if (finished) console.info(`uploads: recorded ${finished} complete upload(s) whose intake had not finished`);
  return finished;
}

/**
 * The uploads the sweep looks at: in a bucket (any process sees them all), those joined between
 * `from` and `to` that have no media row (originals stay where they were joined, so most have one:
 * they are left out before each costs requests to read); in the staging folder, every upload there
 * (each `{id}.json` is one's info, `{id}.meta.json` local storage's record of a finished one).
 */
async function stagedUploadIds(tus: Server, from: number, to: number) {
  if (tus.datastore instanceof BucketStagingStore) {
    const ids = await tus.datastore.finishedBetween(from, to);
    const recorded = await listRecordedUploadIds(db(), ids);
    return ids.filter((id) => !recorded.has(id));
  }
  const names = await fs.readdir(uploadStagingDir()).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith(".json") && !name.endsWith(".meta.json")).map((name) => name.slice(0, -".json".length));
}

/**
 * Runs `finishStagedUploads` every UPLOAD_FINISH_SWEEP_SECONDS in a process that takes uploads
 * (local staging is on its disk; a bucket is seen from every process), for uploads whose last
 * byte arrived at least two sweeps ago.
 */
export function startUploadCompletionSweep(tus: Server) {
  const seconds = env().UPLOAD_FINISH_SWEEP_SECONDS;
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      await finishStagedUploads(tus, 2 * seconds * 1000);
    } catch (error) {
      console.warn("uploads: the sweep of complete uploads failed:", error instanceof Error ? error.message : error);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(sweep, seconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
