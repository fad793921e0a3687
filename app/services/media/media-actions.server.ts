import crypto from "node:crypto";
import type { Media, User } from "drizzle/schema";
import { z } from "zod";
import { checkTrim, decideClaim, moveInOrder } from "~/domain/media-rules";
import { db } from "~/lib/db.server";
import { ApiError, badRequest, isApiError, notFound, unauthorized } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import {
  claimMediaOfToken,
  findMediaById,
  findMediaVersion,
  insertMediaCopy,
  insertMediaVersion,
  lockMontageOrder,
  updateMedia,
  type MediaChanges,
} from "~/models/media.server";
import { openEvent, requireManager } from "~/services/events/events.server";
import { mediaNotFound, uploadTokenMatches, type OpenedMedia } from "~/services/media/media-access.server";
import { rebuildDerivedImages } from "~/services/media/media-derived.server";
import { rearrangeMontage } from "~/services/media/media-order.server";
import { queueMediaProcessing } from "~/services/media/media-queue.server";
import { publishMediaUpdate } from "~/services/media/media-realtime.server";
import { mediaView } from "~/services/media/media-views.server";
import { queuePiecePreparation } from "~/services/render/piece-preparation.server";

// Spec §7.2 media calls that change one item (the photo versions are in media-versions.server.ts).
// Each announces what it changed with publishMediaUpdate, so the organiser's grid follows live.

const conflict = (code: string, message: string) => new ApiError(409, code, message);

/** PUT /v2/media/{id}: any of these; a contributor may send only the first two. */
export const mediaChangesSchema = z
  .object({
    caption: z.string().trim().max(2000, "Keep the caption under 2,000 characters."),
    contributorName: z.string().trim().max(80, "Use at most 80 characters for the name."),
    position: z
      .number({ error: "Give the position as a whole number." })
      .int("Give the position as a whole number.")
      .min(0, "Positions start at 0."),
    trimStart: z.number({ error: "Give the start in seconds." }).min(0, "Start at 0 seconds or later."),
    trimEnd: z.number({ error: "Give the end in seconds." }).positive("The end must be after 0 seconds.").nullable(),
    hidden: z.boolean({ error: "Say true or false." }),
    /** Back to the trim processing found (docs/decisions/053): the whole clip when it found none. */
    useDefaultTrim: z.literal(true, { error: "Send true to go back to the suggested trim." }),
  })
  .partial()
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), { message: "There is nothing to change." })
  .refine((changes) => !(changes.useDefaultTrim && (changes.trimStart !== undefined || changes.trimEnd !== undefined)), {
    message: "Set the trim, or go back to the suggested one: not both.",
    path: ["useDefaultTrim"],
  });
export type MediaChangeInput = z.infer<typeof mediaChangesSchema>;

async function announce(rows: Media[]) {
  for (const row of rows) await publishMediaUpdate(row);
}

/** Applies a checked change in one transaction: a move renumbers the montage with it. */
export async function changeMedia({ record }: OpenedMedia, changes: MediaChangeInput) {
  const { position, trimStart, trimEnd, useDefaultTrim, ...rest } = changes;
  const fields: MediaChanges = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  if (trimStart !== undefined || trimEnd !== undefined) {
    const trim = checkTrim({ trimStart, trimEnd }, record);
    if (!trim.ok) throw badRequest("Some fields need your attention.", trim.errors);
    // Only a trim that differs is the organiser's choice: a form saved for its caption sends the trim it showed.
    if (!sameTrim(trim, record)) Object.assign(fields, { trimStart: trim.trimStart, trimEnd: trim.trimEnd, trimChosen: true });
  }
  if (useDefaultTrim) {
    const trim = defaultTrimOf(record);
    if (!trim.ok) throw badRequest("Some fields need your attention.", { useDefaultTrim: Object.values(trim.errors)[0]! });
    Object.assign(fields, { trimStart: trim.trimStart, trimEnd: trim.trimEnd, trimChosen: false });
  }
  if (position !== undefined && (record.archivedAt || record.purpose !== "contribution")) {
    throw badRequest("Some fields need your attention.", {
      position: record.archivedAt ? "Restore this item before moving it." : "Only contributions have a place in the video.",
    });
  }
  const { updated, moved } = await db().transaction(async (tx) => {
    const moved = position === undefined ? [] : await rearrangeMontage(tx, record.eventId, (ids) => moveInOrder(ids, record.id, position));
    const updated = Object.keys(fields).length
      ? (await updateMedia(tx, record.id, fields))!
      : (moved.find((row) => row.id === record.id) ?? record);
    return { updated, moved: moved.filter((row) => row.id !== record.id) };
  });
  await announce([updated, ...moved]);
  // A new caption or trim changes this item's scene; render it again ahead of publishing.
  if (updated.purpose === "contribution") await queuePiecePreparation(updated.eventId);
  return updated;
}

const sameTrim = (a: { trimStart: number; trimEnd: number | null }, b: { trimStart: number; trimEnd: number | null }) =>
  Math.abs(a.trimStart - b.trimStart) < 0.001 &&
  (a.trimEnd === null || b.trimEnd === null ? a.trimEnd === b.trimEnd : Math.abs(a.trimEnd - b.trimEnd) < 0.001);

/** The trim processing found for a clip, checked as any trim is; a clip it found none for plays whole. */
function defaultTrimOf(record: Media) {
  return checkTrim({ trimStart: record.autoTrimStart ?? 0, trimEnd: record.autoTrimStart === null ? null : record.autoTrimEnd }, record);
}

/** DELETE /v2/media/{id}: archived, not deleted. The original stays and the organiser can restore it. */
export async function archiveMedia({ record }: OpenedMedia) {
  if (record.archivedAt) return record;
  const { updated, moved } = await db().transaction(async (tx) => {
    await lockMontageOrder(tx, record.eventId);
    const updated = (await updateMedia(tx, record.id, { archivedAt: new Date() }))!;
    return { updated, moved: await rearrangeMontage(tx, record.eventId) };
  });
  await announce([updated, ...moved]);
  // Its neighbours now meet, and the closing card's names change: prepared again ahead.
  if (updated.purpose === "contribution") await queuePiecePreparation(updated.eventId);
  return updated;
}

/** PUT /v2/media/{id}/restore: back in the montage, at the end. */
export async function restoreMedia({ record }: OpenedMedia) {
  if (!record.archivedAt) return record;
  const { updated, moved } = await db().transaction(async (tx) => {
    await lockMontageOrder(tx, record.eventId);
    await updateMedia(tx, record.id, { archivedAt: null });
    const moved = await rearrangeMontage(tx, record.eventId, (ids) => moveInOrder(ids, record.id, ids.length));
    return { updated: (await findMediaById(tx, record.id))!, moved: moved.filter((row) => row.id !== record.id) };
  });
  await announce([updated, ...moved]);
  if (updated.purpose === "contribution") await queuePiecePreparation(updated.eventId);
  return updated;
}

export const claimInput = z.object({ uploadToken: z.string().trim().min(1).max(200).optional() });

/**
 * PUT /v2/media/{id}/claim: a contributor who made an account later (`user`) proves with the
 * upload token their browser kept that the item is theirs. Every item that token sent to the
 * event becomes theirs with it.
 */
export async function claimMedia(user: User | null, rawId: string | undefined, token: string | null) {
  const id = uuidParam(rawId, "photo or clip");
  if (!user) throw unauthorized("Log in to keep your uploads in your account.");
  const record = await findMediaById(db(), id);
  if (!record) throw mediaNotFound();
  // A deleted event's media are gone for everyone but its organiser.
  await openEvent(user, record.eventId).catch((error: unknown) => {
    throw isApiError(error) && error.status === 404 ? mediaNotFound() : error;
  });
  const decision = decideClaim({
    userId: user.id,
    holdsUploadToken: uploadTokenMatches(token, record.uploadTokenHash),
    uploaderId: record.uploaderId,
  });
  if (!decision.allowed) {
    if (decision.refusal === "conflict") throw conflict("ALREADY_CLAIMED", "This upload already belongs to another account.");
    throw mediaNotFound();
  }
  const claimed = await claimMediaOfToken(db(), record.eventId, record.uploadTokenHash!, user.id);
  await announce(claimed);
  const updated = claimed.find((row) => row.id === record.id) ?? record;
  return { claimed: claimed.length, media: mediaView(updated) };
}

/**
 * POST /v2/media/{id}/duplicate: a second card for the same photo or clip (to show it twice,
 * or with another caption). It shares the stored files — no bytes are copied — and its
 * version in use, and sits right after its source.
 */
export async function duplicateMedia({ record }: OpenedMedia) {
  const { id: _id, mediaUuid: _uuid, position: _position, createdAt: _created, updatedAt: _updated, ...copied } = record;
  const { copy, moved } = await db().transaction(async (tx) => {
    await lockMontageOrder(tx, record.eventId);
    let copy = await insertMediaCopy(tx, {
      ...copied,
      uploadId: `dup-${crypto.randomUUID()}`,
      duplicatedFrom: record.id,
      activeVersionId: null,
    });
    if (record.activeVersionId) {
      const active = await findMediaVersion(tx, record.id, record.activeVersionId);
      if (active) {
        const { id: _vid, mediaId: _mid, createdAt: _vcreated, ...version } = active;
        const shared = await insertMediaVersion(tx, { ...version, mediaId: copy.id });
        copy = (await updateMedia(tx, copy.id, { activeVersionId: shared.id }))!;
      }
    }
    const moved = record.archivedAt
      ? []
      : await rearrangeMontage(tx, record.eventId, (ids) => moveInOrder(ids, copy.id, ids.indexOf(record.id) + 1));
    return { copy: moved.find((row) => row.id === copy.id) ?? copy, moved: moved.filter((row) => row.id !== copy.id) };
  });
  await announce([copy, ...moved]);
  if (copy.purpose === "contribution") await queuePiecePreparation(copy.eventId);
  return copy;
}

/** Back to "uploaded" with its job queued, together or not at all: never waiting for a job that is not there. */
async function queueProcessing(record: Media) {
  const updated = await db().transaction(async (tx) => {
    const row = (await updateMedia(tx, record.id, { status: "uploaded", failureReason: null }))!;
    await queueMediaProcessing(record, tx);
    return row;
  });
  await publishMediaUpdate(updated);
  return updated;
}

export const retryInput = z.object({ eventId: z.uuid("Give the Chorus's id."), mediaId: z.uuid("Give the id of the photo or clip.") });

/**
 * POST /v2/media. The spec names the call without its payload. Uploads create media records
 * themselves (tus and the plain form) and there is no stock library yet, so this call gives
 * the organiser the one creation-like action left: processing a FAILED upload again, e.g.
 * after a fix on our side. `{eventId, mediaId}`; anything but a failed item is a 409.
 */
export async function retryMedia(user: User | null, input: z.infer<typeof retryInput>) {
  const { event } = await requireManager(user, input.eventId);
  const record = await findMediaById(db(), input.mediaId);
  if (!record || record.eventId !== event.id) throw notFound("This Chorus has no photo or clip with this id.");
  if (record.status !== "failed") throw conflict("NOT_FAILED", "Only an upload that failed can be processed again.");
  return queueProcessing(record);
}

/**
 * PUT /v2/media/{id}/regenerate-image: a ready photo's rendition, poster and thumbnails are
 * made again from its active version or original; anything else is processed again.
 */
export async function regenerateMedia({ record }: OpenedMedia) {
  if (record.kind === "photo" && record.status === "ready") {
    const updated = await rebuildDerivedImages(record);
    await publishMediaUpdate(updated);
    return updated;
  }
  return queueProcessing(record);
}
