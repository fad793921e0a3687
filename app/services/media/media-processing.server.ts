import path from "node:path";
import type { Media } from "drizzle/schema";
import { openWorkDir, type JobRef } from "~/jobs/work-dir.server";
import { db } from "~/lib/db.server";
import { prepareClip } from "~/media/clip-review.server";
import { photoRendition, thumbnails, videoPoster, type WrittenImage } from "~/media/images.server";
import { validateUpload } from "~/media/validate.server";
import { findEventById } from "~/models/event.server";
import { applyDefaultTrim, findMediaById, updateMedia } from "~/models/media.server";
import { updateRsvp } from "~/models/rsvp.server";
import { queueContributionDigest } from "~/services/events/digest.server";
import { deleteReplacedDerivedFiles, focusFields } from "~/services/media/media-derived.server";
import { publishMediaUpdate } from "~/services/media/media-realtime.server";
import { storage } from "~/services/media/storage.server";
import { queuePiecePreparation } from "~/services/render/piece-preparation.server";
import { uploadLimits } from "~/services/uploads/media-intake.server";

export const PREPARE_FAILED = "We could not prepare this file. The organiser can try it again.";

/** Failures that are about the file itself: retrying cannot help, the contributor is told why. */
const isFileProblem = (error: unknown) =>
  error instanceof Error &&
  (error.name === "UploadRejectedError" || error.name === "UnreadableMediaError" || error.name === "InvalidPhotoEditError");

const mimeOfImage = (image: WrittenImage) => (image.format === "webp" ? "image/webp" : image.format === "png" ? "image/png" : "image/jpeg");

async function storeImages(base: string, images: WrittenImage[]) {
  const keys: Record<string, string> = {};
  for (const image of images) {
    const name = path.basename(image.path);
    keys[name] = `${base}/${name}`;
    await storage().putFile(keys[name]!, image.path, mimeOfImage(image));
  }
  return keys;
}

/**
 * The media processing job (either lane): checks the original's real type and limits, then makes
 * the rendition every render uses (fixed size and rate, upright, blurred fill,
 * loudness normalised), a poster and thumbnails. Idempotent: a retry redoes the
 * same files under the same keys; a file that is not acceptable ends `failed`.
 */
export async function processMedia(mediaId: string, { finalAttempt = false, job }: { finalAttempt?: boolean; job?: JobRef } = {}) {
  const record = await findMediaById(db(), mediaId);
  if (!record || record.status === "ready") return;
  // Re-processing (a retry by the organiser) is not news for the digest.
  const firstTime = !record.renditionKey;
  await setStatus(record, { status: "processing", failureReason: null });
  // Named by item and job: run again after its worker died, the job first empties what the dead
  // attempt left (a half-written rendition can be hundreds of megabytes).
  const workDir = await openWorkDir(`media-${record.id}-${job?.id ?? "direct"}`, job);
  const work = workDir.path;
  let original: { path: string; release: () => Promise<void> } | undefined;
  try {
    // Inside the try: an original that cannot be fetched is our trouble, retried and then reported.
    original = await storage().localCopy(record.originalKey, { into: work });
    const limits = uploadLimits();
    const checked = await validateUpload(original.path, {
      declaredName: record.originalName,
      workDir: work,
      limits: {
        maxVideoBytes: limits.maxVideoBytes,
        maxPhotoBytes: limits.maxPhotoBytes,
        maxClipSeconds: limits.maxClipSeconds,
        maxPhotoPixels: 100_000_000,
      },
    });
    const base = `events/${record.eventId}/media/${record.mediaUuid}`;
    let renditionKey: string;
    let posterKey: string;
    let thumbs: Record<string, string>;
    // What processing learns beyond the files: a photo's subject, a clip's default trim and advice.
    let found: Pick<Media, "focusX" | "focusY" | "autoTrimStart" | "autoTrimEnd" | "advice">;
    if (checked.kind === "photo") {
      // A HEIC photo is read from its decoded pixels (sharp cannot decode HEVC).
      const photo = checked.decodedPhoto ?? original.path;
      const rendition = await photoRendition(photo, path.join(work, "rendition.jpg"));
      renditionKey = `${base}/rendition.jpg`;
      await storage().putFile(renditionKey, rendition.path, "image/jpeg");
      thumbs = await storeImages(base, await thumbnails(photo, work));
      posterKey = thumbs["thumb-640.jpg"] ?? Object.values(thumbs)[0]!;
      found = { ...focusFields(rendition.focus), autoTrimStart: null, autoTrimEnd: null, advice: [] };
    } else {
      const renditionFile = path.join(work, "rendition.mp4");
      const { review, focus } = await prepareClip(original.path, renditionFile, { workDir: work });
      // The poster shows what the video will: the clip's own trim, or the default one found now.
      const kept = record.trimChosen ? record : review;
      const { poster, thumbnails: posterThumbs } = await videoPoster(renditionFile, path.join(work, "poster.jpg"), { kept });
      renditionKey = `${base}/rendition.mp4`;
      await storage().putFile(renditionKey, renditionFile, "video/mp4");
      posterKey = `${base}/poster.jpg`;
      await storage().putFile(posterKey, poster.path, "image/jpeg");
      thumbs = await storeImages(base, posterThumbs);
      found = { ...focusFields(focus), autoTrimStart: review.trimStart, autoTrimEnd: review.trimEnd, advice: review.advice };
    }
    const ready = await db().transaction(async (tx) => {
      const row = await updateMedia(tx, record.id, {
        kind: checked.kind,
        mimeType: checked.mime,
        width: checked.width,
        height: checked.height,
        durationSeconds: checked.duration,
        rotation: checked.rotation,
        hasAudio: checked.hasAudio,
        renditionKey,
        posterKey,
        thumbnails: thumbs,
        ...found,
        status: "ready",
        failureReason: null,
      });
      // The dead air found becomes the clip's trim, unless the organiser has set one: theirs stays.
      if (checked.kind !== "video") return row;
      return (await applyDefaultTrim(tx, record.id, { trimStart: found.autoTrimStart ?? 0, trimEnd: found.autoTrimEnd })) ?? row;
    });
    await publishMediaUpdate(ready!);
    // Its scene of the video is rendered now, so publishing later is quick (docs/rendering.md).
    if (ready!.purpose === "contribution") await queuePiecePreparation(ready!.eventId);
    // Processed again after a rebuild: the rebuild's own files are no longer the item's.
    await deleteReplacedDerivedFiles(record, ready!);
    if (firstTime) await noteContribution(ready!);
  } catch (error) {
    if (!isFileProblem(error)) {
      // Our trouble, not the file's: retried, and after the last try the item says so instead of
      // staying "processing" for ever. The organiser can try it again from the grid.
      if (finalAttempt) await setStatus(record, { status: "failed", failureReason: PREPARE_FAILED });
      throw error;
    }
    await setStatus(record, { status: "failed", failureReason: (error as Error).message });
  } finally {
    await original?.release();
    await workDir.remove();
  }
}

/**
 * The media-dead job: an item's processing failed for good. Usually the last attempt already
 * said so; when its worker died on that attempt, nothing did, and the item would stay
 * "processing" for ever. Now it says it failed, and the organiser can try it again.
 */
export async function abandonMedia(mediaId: string) {
  const record = await findMediaById(db(), mediaId);
  if (record?.status !== "processing") return;
  await setStatus(record, { status: "failed", failureReason: PREPARE_FAILED });
}

async function setStatus(record: Media, changes: Pick<Media, "status" | "failureReason">) {
  const updated = await updateMedia(db(), record.id, changes);
  if (updated) await publishMediaUpdate(updated);
  // No scene comes of it, but preparation left the soundtrack while it was being processed.
  if (updated?.status === "failed" && updated.purpose === "contribution") await queuePiecePreparation(updated.eventId);
}

/** A ready contribution marks its invitee as contributed and lines up the organiser's digest. */
async function noteContribution(record: Media) {
  if (record.purpose !== "contribution") return;
  if (record.rsvpId) await updateRsvp(db(), record.rsvpId, { status: "contributed", contributedAt: new Date() });
  const event = await findEventById(db(), record.eventId);
  if (event) await queueContributionDigest(event);
}
