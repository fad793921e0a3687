import crypto from "node:crypto";
import type { Event, Media, User } from "drizzle/schema";
import { decideMediaAccess, type MediaAction, type MediaCaller, type MediaRelation } from "~/domain/media-rules";
import { hasEditRights } from "~/domain/membership";
import { db } from "~/lib/db.server";
import { keysMatch } from "~/lib/event-keys.server";
import { forbidden, isApiError, notFound, unauthorized } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { hashToken } from "~/lib/tokens.server";
import { findMediaById, findMediaByUuid } from "~/models/media.server";
import { openEvent } from "~/services/events/events.server";
import type { MediaCredentials } from "~/services/media/media-credentials.server";

/** One media item and how the caller stands to it, once allowed. */
export interface OpenedMedia {
  record: Media;
  event: Event;
  relation: MediaRelation;
  user: User | null;
}

export const mediaNotFound = () => notFound("There is no photo or clip with this id.");

/** Whether `token` is the one whose hash was stored, compared without leaking timing. */
export function uploadTokenMatches(token: string | null | undefined, storedHash: string | null) {
  if (!token || !storedHash) return false;
  const given = Buffer.from(hashToken(token));
  const stored = Buffer.from(storedHash);
  return given.length === stored.length && crypto.timingSafeEqual(given, stored);
}

const FORBIDDEN_MESSAGES: Partial<Record<MediaAction, string>> = {
  arrange: "Only the organiser can arrange, trim or hide contributions. You can change your caption and name.",
  view: "Only the organiser can see this.",
};

/**
 * Loads an item by its id (or mediaUuid) and checks that the caller may do `action` to it.
 * Callers: the organiser by their account, the contributor by their upload token or their
 * account, the recipient by the event's private key (thank-you videos). Answers 401, 403 or
 * 404 otherwise.
 */
export async function requireMedia(
  credentials: MediaCredentials,
  address: { id?: string; mediaUuid?: string },
  action: MediaAction,
): Promise<OpenedMedia> {
  const byUuid = address.mediaUuid !== undefined;
  const key = uuidParam(byUuid ? address.mediaUuid : address.id, "photo or clip");
  const { user, uploadToken: token, privateKey } = credentials;
  const identified = !!(user || token || privateKey);
  // Nothing to go on: asked to log in before we even look, so the answer says nothing about the id.
  if (!identified && action !== "view") throw unauthorized("Log in, or use the browser you uploaded from.");
  const record = byUuid ? await findMediaByUuid(db(), key) : await findMediaById(db(), key);
  if (!record) throw mediaNotFound();
  const opened = await openEvent(user, record.eventId).catch((error: unknown) => {
    // The event is deleted and the caller is not its organiser: its media are gone too.
    if (isApiError(error) && error.status === 404) throw mediaNotFound();
    throw error;
  });
  const caller: MediaCaller = {
    role: opened.viewer.role,
    userId: user?.id ?? null,
    holdsUploadToken: uploadTokenMatches(token, record.uploadTokenHash),
    holdsPrivateKey: keysMatch(privateKey, opened.event.privateKey),
    identified,
    editRights: hasEditRights(user),
  };
  const decision = decideMediaAccess(action, caller, {
    uploaderId: record.uploaderId,
    purpose: record.purpose,
    archived: !!record.archivedAt,
  });
  if (!decision.allowed) {
    if (decision.refusal === "unauthorized") throw unauthorized("Log in, or use the browser you uploaded from.");
    if (decision.refusal === "not-found") throw mediaNotFound();
    throw forbidden(FORBIDDEN_MESSAGES[action] ?? "Only the organiser can do that.");
  }
  return { record, event: opened.event, relation: decision.relation, user };
}

/** For the organiser's own page: an item of their event, already known to be theirs to manage. */
export async function mediaOfEvent(event: Event, user: User | null, rawId: string | undefined): Promise<OpenedMedia> {
  const record = await findMediaById(db(), uuidParam(rawId, "photo or clip"));
  if (!record || record.eventId !== event.id) throw mediaNotFound();
  return { record, event, relation: "organiser", user };
}
