import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Media, MediaVersion } from "drizzle/schema";
import sharp from "sharp";
import { upscaleFactorFor } from "~/domain/media-rules";
import { db } from "~/lib/db.server";
import { ApiError, notFound } from "~/lib/http.server";
import { photoSharpCanRead } from "~/media/heic.server";
import { editPhoto, photoEditsSchema, upscalePhoto, type PhotoEdits } from "~/media/images.server";
import { assertCropInside } from "~/media/photo-edits";
import {
  findMediaVersion,
  findPendingVersion,
  insertMediaVersion,
  markActiveVersionsReplaced,
  updateMedia,
  updateMediaVersion,
} from "~/models/media.server";
import type { OpenedMedia } from "~/services/media/media-access.server";
import { deleteReplacedDerivedFiles, renderDerivedImages, renditionSourceKey } from "~/services/media/media-derived.server";
import { publishMediaUpdate } from "~/services/media/media-realtime.server";
import { mediaView } from "~/services/media/media-views.server";
import { storage } from "~/services/media/storage.server";
import { queuePiecePreparation } from "~/services/render/piece-preparation.server";

// Spec §4 "Media actions": upscale (then review), revert, and edit-then-render through the
// image editor. The original is never touched; a version is a file of its own, and the
// photo's rendition and thumbnails are rebuilt from whichever version is active.

const conflict = (code: string, message: string) => new ApiError(409, code, message);

export const versionView = (version: MediaVersion) => ({
  id: version.id,
  kind: version.kind,
  status: version.status,
  edits: version.edits,
  width: version.width,
  height: version.height,
  createdAt: version.createdAt.toISOString(),
});

function requireReadyPhoto(record: Media, verb: string) {
  if (record.kind !== "photo") throw conflict("NOT_A_PHOTO", `Only photos can be ${verb}.`);
  if (record.status !== "ready") throw conflict("NOT_READY", "This photo is still being processed. Try again once it's ready.");
}

const versionKey = (record: Media, versionId: string) => `events/${record.eventId}/media/${record.mediaUuid}/versions/${versionId}.jpg`;

/** Runs `make` on a local copy of `sourceKey` with a scratch folder, cleaning both up after. */
async function withLocalFile<T>(sourceKey: string, make: (input: string, work: string) => Promise<T>) {
  const source = await storage().localCopy(sourceKey);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "chorus-version-"));
  try {
    // Photos only reach here: a HEIC original is read from its decoded pixels.
    return await make(await photoSharpCanRead(source.path, work), work);
  } finally {
    await fs.rm(work, { recursive: true, force: true });
    await source.release();
  }
}

/** Makes `version` the one renders use: derived images from its file, the previous one replaced. */
async function activate(record: Media, version: MediaVersion, extra: Partial<Media> = {}) {
  const derived = await renderDerivedImages(record, version.key);
  const updated = await db().transaction(async (tx) => {
    await markActiveVersionsReplaced(tx, record.id, version.id);
    await updateMediaVersion(tx, version.id, { status: "active" });
    return (await updateMedia(tx, record.id, { ...derived, ...extra, activeVersionId: version.id }))!;
  });
  await deleteReplacedDerivedFiles(record, updated);
  await publishMediaUpdate(updated);
  // Another picture in its scene: rendered again ahead of publishing.
  if (updated.purpose === "contribution") await queuePiecePreparation(updated.eventId);
  return updated;
}

/**
 * POST /v2/media/{id}/upscale: enlarges what the photo shows now (2×, or until the long edge
 * reaches 1920 px, at most 4×) into a version awaiting the organiser's review.
 */
export async function upscaleMedia({ record }: OpenedMedia) {
  requireReadyPhoto(record, "upscaled");
  const factor = upscaleFactorFor({ width: record.width ?? 0, height: record.height ?? 0 });
  if (factor === null) {
    throw conflict(
      "ALREADY_LARGE",
      `This photo is already ${record.width}×${record.height} pixels: large enough for the video without upscaling.`,
    );
  }
  const id = crypto.randomUUID();
  const key = versionKey(record, id);
  const written = await withLocalFile(await renditionSourceKey(record), async (input, work) => {
    const output = path.join(work, "upscaled.jpg");
    const image = await upscalePhoto(input, output, factor).catch((error: unknown) => {
      if (error instanceof RangeError) throw conflict("TOO_LARGE", error.message);
      throw error;
    });
    await storage().putFile(key, output, "image/jpeg");
    return image;
  });
  const version = await insertMediaVersion(db(), {
    id,
    mediaId: record.id,
    kind: "upscale",
    status: "pending_review",
    key,
    width: written.width,
    height: written.height,
  });
  // Null while a review is pending: the organiser's grid can say so.
  const updated = (await updateMedia(db(), record.id, { approved: null }))!;
  await publishMediaUpdate(updated);
  return { version: versionView(version), media: mediaView(updated) };
}

/** POST /v2/media/{id}/upscale-reviewed: the newest pending upscale is taken into use, or turned down. */
export async function reviewUpscale({ record }: OpenedMedia, approved: boolean) {
  requireReadyPhoto(record, "upscaled");
  const version = await findPendingVersion(db(), record.id, "upscale");
  if (!version) throw conflict("NOTHING_TO_REVIEW", "There is no upscaled version of this photo waiting for review.");
  if (approved) {
    const updated = await activate(record, version, { approved: true });
    return { version: versionView({ ...version, status: "active" }), media: mediaView(updated) };
  }
  const rejected = (await updateMediaVersion(db(), version.id, { status: "rejected" }))!;
  const updated = (await updateMedia(db(), record.id, { approved: false }))!;
  await publishMediaUpdate(updated);
  return { version: versionView(rejected), media: mediaView(updated) };
}

/** POST /v2/media/{id}/revert: back to the original; the version in use is kept as replaced. */
export async function revertMedia({ record }: OpenedMedia) {
  requireReadyPhoto(record, "reverted");
  const derived = await renderDerivedImages(record, record.originalKey);
  const updated = await db().transaction(async (tx) => {
    await markActiveVersionsReplaced(tx, record.id);
    return (await updateMedia(tx, record.id, { ...derived, activeVersionId: null }))!;
  });
  await deleteReplacedDerivedFiles(record, updated);
  await publishMediaUpdate(updated);
  // Another picture in its scene: rendered again ahead of publishing.
  if (updated.purpose === "contribution") await queuePiecePreparation(updated.eventId);
  return mediaView(updated);
}

const invalidEdit = (error: unknown) => {
  if (error instanceof Error && error.name === "InvalidPhotoEditError")
    return new ApiError(400, "INVALID_EDIT", error.message, { edits: error.message });
  return error;
};

/**
 * POST /v2/media/{id}/pintura-edit: keeps the editor's settings as a version awaiting
 * render (no pixels yet). A crop is checked against the original at once.
 */
export async function saveEdit({ record }: OpenedMedia, edits: PhotoEdits) {
  requireReadyPhoto(record, "edited");
  if (edits.crop) {
    const crop = edits.crop;
    await withLocalFile(record.originalKey, async (input) => {
      const { width, height } = (await sharp(input).metadata()).autoOrient;
      try {
        assertCropInside(crop, { width, height });
      } catch (error) {
        throw invalidEdit(error);
      }
    });
  }
  const id = crypto.randomUUID();
  const version = await insertMediaVersion(db(), {
    id,
    mediaId: record.id,
    kind: "edit",
    status: "pending_review",
    key: versionKey(record, id),
    edits,
  });
  return versionView(version);
}

/**
 * POST /v2/media/{id}/pintura-render: renders an edit (the newest pending one, or `versionId`)
 * from the ORIGINAL, never on top of an earlier render, and takes it into use.
 */
export async function renderEdit({ record }: OpenedMedia, versionId?: string) {
  requireReadyPhoto(record, "edited");
  const version = versionId ? await findMediaVersion(db(), record.id, versionId) : await findPendingVersion(db(), record.id, "edit");
  if (!version) {
    if (versionId) throw notFound("This photo has no edit with this id.");
    throw conflict("NOTHING_TO_RENDER", "There is no edit of this photo waiting to be rendered.");
  }
  if (version.kind !== "edit") throw conflict("NOT_AN_EDIT", "This version is an upscale, not an edit: review it instead.");
  if (version.status === "rejected") throw conflict("REJECTED", "This edit was turned down. Make a new one.");
  const edits = photoEditsSchema.parse(version.edits ?? {});
  const written = await withLocalFile(record.originalKey, async (input, work) => {
    const output = path.join(work, "edited.jpg");
    const image = await editPhoto(input, output, edits).catch((error: unknown) => {
      throw invalidEdit(error);
    });
    await storage().putFile(version.key, output, "image/jpeg");
    return image;
  });
  const rendered = (await updateMediaVersion(db(), version.id, { width: written.width, height: written.height }))!;
  const updated = await activate(record, rendered);
  return { version: versionView({ ...rendered, status: "active" }), media: mediaView(updated) };
}
