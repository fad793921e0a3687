import type { Event, Media, Rsvp, User } from "drizzle/schema";
import { z } from "zod";
import { acceptsContributions } from "~/domain/event-permissions";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { keysMatch } from "~/lib/event-keys.server";
import { ApiError, fieldErrors, validateInput } from "~/lib/http.server";
import { hashToken } from "~/lib/tokens.server";
import { findEventByUuid } from "~/models/event.server";
import { eventUsage, insertMedia } from "~/models/media.server";
import { findRsvpById, findRsvpByInviteToken, findRsvpOfUser } from "~/models/rsvp.server";
import { queueMediaProcessing } from "~/services/media/media-queue.server";

/** What a browser says about an upload when it starts one (tus metadata or the plain form). */
export const uploadMetadataSchema = z.object({
  eventUuid: z.uuid("This upload is not for a known Chorus."),
  filename: z.string().trim().max(255).optional().default(""),
  filetype: z.string().trim().max(100).optional().default(""),
  contributorName: z.string().trim().max(80, "Use at most 80 characters for your name.").optional().default(""),
  caption: z.string().trim().max(2000, "Keep your message under 2,000 characters.").optional().default(""),
  purpose: z.enum(["contribution", "thank_you"]).optional().default("contribution"),
  privateKey: z.string().max(100).optional(),
  invite: z.string().max(100).optional(),
  /** A random token the contributor's browser keeps: their key to change or remove this upload later. */
  uploadToken: z.string("Missing upload token.").min(20, "Missing upload token.").max(200),
});
export type UploadMetadata = z.infer<typeof uploadMetadataSchema>;

const digest = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * What a tus upload keeps of its metadata from its creation to its last byte (keptUploadMetadata),
 * where tus echoes it to whoever asks (HEAD): the secrets it came with only as their digests, and the
 * invitation as the invitee it named. Uploads created before keep their secrets as sent, and are read
 * as they were.
 */
const keptMetadataSchema = uploadMetadataSchema
  .omit({ uploadToken: true })
  .extend({
    uploadToken: uploadMetadataSchema.shape.uploadToken.optional(),
    uploadTokenHash: digest.optional(),
    privateKeyHash: digest.optional(),
    rsvpId: z.uuid().optional(),
  })
  .refine((meta) => meta.uploadToken || meta.uploadTokenHash, { path: ["uploadToken"], message: "Missing upload token." });

type KeptMetadata = z.infer<typeof keptMetadataSchema>;

/** An upload's details as checked: no secret, and the uploader's token known by its digest alone. */
export type CheckedUploadMetadata = Omit<UploadMetadata, "uploadToken" | "privateKey" | "invite"> & { uploadTokenHash: string };

export interface AuthorisedUpload {
  event: Event;
  meta: CheckedUploadMetadata;
  uploader: User | null;
  rsvp: Rsvp | null;
}

/** The metadata an upload keeps once it is authorised: no secret, only what finishing it needs (docs/decisions/013). */
export function keptUploadMetadata({ meta, rsvp }: AuthorisedUpload, privateKey: unknown): Record<string, string> {
  return {
    ...meta,
    ...(typeof privateKey === "string" && privateKey ? { privateKeyHash: hashToken(privateKey) } : {}),
    ...(rsvp ? { rsvpId: rsvp.id } : {}),
  };
}

/** The token an upload was created with, for the uploader's own requests to it (HEAD, PATCH, DELETE). */
export function uploadTokenHashOf(metadata: Record<string, unknown> | undefined): string | null {
  if (!metadata) return null;
  if (typeof metadata.uploadTokenHash === "string") return metadata.uploadTokenHash;
  return typeof metadata.uploadToken === "string" ? hashToken(metadata.uploadToken) : null;
}

const refuse = (status: number, code: string, message: string) => new ApiError(status, code, message);

/** Limits a contributor sees before uploading, and the server enforces. */
export function uploadLimits() {
  const s = env();
  return {
    maxVideoBytes: s.MAX_VIDEO_BYTES,
    maxPhotoBytes: s.MAX_PHOTO_BYTES,
    maxClipSeconds: s.MAX_CLIP_SECONDS,
    maxEventBytes: s.MAX_EVENT_BYTES,
    maxEventFiles: s.MAX_EVENT_FILES,
  };
}

/**
 * Decides whether an upload may start: the event takes contributions (or, for a
 * thank-you video, the caller holds the recipient's key), the size is within the
 * limits and the event's quota has room. `uploader` is who is logged in, if anyone; an
 * upload finished with no request of its own (the sweep of staged uploads) has no known uploader.
 */
export async function authoriseUpload(
  uploader: User | null,
  raw: Record<string, unknown>,
  size: number | undefined,
  stage: "start" | "finish" = "start",
): Promise<AuthorisedUpload> {
  // tus sends a key without a value (an empty caption) as null.
  const parsed = validateInput(
    // Finishing reads what the upload kept: digests of its secrets (keptUploadMetadata).
    stage === "finish" ? keptMetadataSchema : uploadMetadataSchema,
    Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null && v !== undefined)),
  );
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error);
    throw new ApiError(400, "BAD_UPLOAD_METADATA", Object.values(fields)[0] ?? "This upload is missing details.", fields);
  }
  const data: KeptMetadata = parsed.data;
  const { uploadToken, uploadTokenHash, privateKey, privateKeyHash, invite, rsvpId, ...details } = data;
  const meta: CheckedUploadMetadata = { ...details, uploadTokenHash: uploadTokenHash ?? hashToken(uploadToken!) };
  const event = await findEventByUuid(db(), meta.eventUuid);
  if (!event) throw refuse(404, "NOT_FOUND", "There is no Chorus at this link.");
  // Taken down by staff: nothing more goes into it, whoever sends it and however far it got.
  if (event.takenDownAt) throw refuse(410, "CHORUS_UNAVAILABLE", "This Chorus is unavailable.");
  if (meta.purpose === "thank_you") {
    const recipient = privateKeyHash ? keysMatch(privateKeyHash, hashToken(event.privateKey)) : keysMatch(privateKey, event.privateKey);
    if (!recipient) throw refuse(403, "FORBIDDEN", "Only the recipient can add a thank-you video.");
  } else if (stage === "start" && !acceptsContributions(event)) {
    // Checked when an upload starts only: one that began in time is kept even if the deadline
    // passes while the last bytes arrive over a slow link.
    throw refuse(409, "EVENT_CLOSED", "This Chorus is no longer collecting contributions.");
  }
  const limits = uploadLimits();
  if (size === undefined) throw refuse(400, "SIZE_REQUIRED", "The file size must be known when the upload starts.");
  if (size === 0) throw refuse(400, "EMPTY", "This file is empty.");
  const isPhoto = meta.filetype.startsWith("image/");
  const max = isPhoto ? limits.maxPhotoBytes : limits.maxVideoBytes;
  if (size > max) {
    throw refuse(413, "TOO_LARGE", `This file is too large: ${isPhoto ? "photos" : "videos"} can be up to ${formatBytes(max)}.`);
  }
  const usage = stage === "start" ? await eventUsage(db(), event.id) : { files: 0, bytes: 0 };
  if (usage.files >= limits.maxEventFiles || usage.bytes + size > limits.maxEventBytes) {
    throw refuse(413, "QUOTA_EXCEEDED", "This Chorus has no room for more files. Ask the organiser to make space.");
  }
  let rsvp: Rsvp | null = null;
  if (rsvpId) rsvp = await findRsvpById(db(), rsvpId);
  else if (invite) rsvp = await findRsvpByInviteToken(db(), event.id, invite);
  if (rsvp && rsvp.eventId !== event.id) rsvp = null;
  if (!rsvp && uploader) rsvp = await findRsvpOfUser(db(), event.id, uploader);
  return { event, meta, uploader, rsvp };
}

/**
 * Records a finished upload and queues its processing, in one transaction: a row without its job
 * would wait for processing for ever, and a complete upload without a row is recorded again by the
 * next HEAD or the sweep (upload-completion.server.ts). Recording the same upload twice is harmless.
 */
export async function recordUpload(upload: AuthorisedUpload, file: { uploadId: string; key: string; size: number }): Promise<Media> {
  const { event, meta, uploader, rsvp } = upload;
  return db().transaction(async (tx) => {
    const record = await insertMedia(tx, {
      eventId: event.id,
      purpose: meta.purpose,
      originalKey: file.key,
      originalName: meta.filename,
      mimeType: meta.filetype || "application/octet-stream",
      sizeBytes: file.size,
      contributorName: meta.contributorName || rsvp?.name || "",
      caption: meta.caption,
      uploaderId: uploader?.id ?? null,
      rsvpId: rsvp?.id ?? null,
      uploadTokenHash: meta.uploadTokenHash,
      uploadId: file.uploadId,
    });
    await queueMediaProcessing(record, tx);
    return record;
  });
}

export function formatBytes(bytes: number) {
  if (bytes >= 1024 ** 3) return `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB`;
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}
