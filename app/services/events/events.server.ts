import type { Event, User } from "drizzle/schema";
import { stripProtectedEventFields } from "~/domain/event-fields";
import { createEventInput, recipientUpdateInput, updateEventInput, type CreateEventInput } from "~/domain/event-input";
import { canManageEvent } from "~/domain/event-permissions";
import { hasEditRights, isMember } from "~/domain/membership";
import { db } from "~/lib/db.server";
import { ApiError, badRequest, forbidden, notFound, parseWith } from "~/lib/http.server";
import {
  findEventById,
  insertEvent,
  listContributorNames,
  listRecipients,
  markEventOpened as markEventOpenedOnce,
  rotateEventKeys,
  setEventDeleted,
  updateEvent,
} from "~/models/event.server";
import { listRsvps } from "~/models/rsvp.server";
import { resolveEventViewer, type EventKeys, type EventViewer } from "~/services/events/event-access.server";
import { audienceEventView, creatorEventView, publicEventView } from "~/services/events/event-views.server";
import { queueGiftRefunds } from "~/services/gift-cards/refunds.server";
import { queuePiecePreparation } from "~/services/render/piece-preparation.server";

export const eventNotFound = () => notFound("There is no Chorus with this id.");

/** A Chorus staff took down after a report: unavailable to all but staff (spec §6) until restored. */
export const eventUnavailable = () => new ApiError(410, "CHORUS_UNAVAILABLE", "This Chorus is unavailable.");

export async function createEvent(creator: User, input: CreateEventInput) {
  return db().transaction((tx) =>
    insertEvent(tx, {
      creatorId: creator.id,
      occasion: input.occasion,
      occasionOther: input.occasion === "other" ? input.occasionOther : null,
      guestbook: input.guestbook,
      deadline: input.deadline,
      timeZone: input.timeZone,
      title: input.title,
      message: input.message,
      prompts: input.prompts,
      analyticsClientId: input.analyticsClientId ?? null,
      // Started as a member: what the membership includes stays with it (docs/decisions/047).
      includedWithMembershipAt: isMember(creator) ? new Date() : null,
      recipients: input.recipients,
    }),
  );
}

export const parseNewEvent = (payload: unknown) => parseWith(createEventInput(), payload);

/**
 * The event and who is asking (`user`, signed in or not, and the keys in the page address); a
 * deleted event exists only for its creator and admins, one taken down only for staff.
 */
export async function openEvent(user: User | null, id: string, keys: EventKeys = {}) {
  const event = await findEventById(db(), id, { withDeleted: true });
  if (!event) throw eventNotFound();
  return openFoundEvent(user, event, keys);
}

/** openEvent for an event already read (found by its uuid, withDeleted): the same rules, no second read. */
export async function openFoundEvent(user: User | null, event: Event, keys: EventKeys) {
  const viewer = await resolveEventViewer(user, event, keys);
  if (event.deletedAt && !canManageEvent(viewer.role)) throw eventNotFound();
  if (event.takenDownAt && !hasEditRights(user)) throw eventUnavailable();
  return { event, viewer };
}

/** The event when `user` manages it (its organiser, or an admin): 401 for no one, 403 for anyone else. */
export async function requireManager(user: User | null, id: string) {
  const opened = await openEvent(user, id);
  if (!canManageEvent(opened.viewer.role)) {
    if (!opened.viewer.user) throw new ApiError(401, "UNAUTHORIZED", "Please log in to continue.");
    throw forbidden("Only the organiser can do that.");
  }
  return opened;
}

/** What this viewer may see of the event. */
export async function eventViewFor(event: Event, viewer: EventViewer) {
  // Every view names the recipients; each view's other read goes beside it: on a busy page every
  // round trip waited for is a request held.
  const recipients = listRecipients(db(), event.id);
  if (viewer.role === "creator") {
    const [named, rsvps] = await Promise.all([recipients, listRsvps(db(), event.id)]);
    return { role: viewer.role, event: creatorEventView(event, named, rsvps) };
  }
  if (viewer.role === "recipient" || viewer.role === "view-only") {
    // Everyone who took part: invitees who contributed and those who added something through the open link.
    const [named, names] = await Promise.all([recipients, listContributorNames(db(), event.id)]);
    const contributors = [...new Set(names.map((name) => name.trim()).filter(Boolean))];
    return { role: viewer.role, event: audienceEventView(event, named, contributors) };
  }
  return { role: viewer.role, contributor: viewer.contributor, event: publicEventView(event, await recipients) };
}

/**
 * PUT /v2/events/{id}: the protected fields of spec §3 are removed first. The
 * organiser changes the event; with the private key, the recipient changes only
 * what is theirs (their thank-you message), without an account.
 */
/** Fields only the organiser may change, and fields only the recipient may. */
const ORGANISER_FIELDS = new Set(Object.keys(updateEventInput().shape));
const RECIPIENT_FIELDS = new Set(Object.keys(recipientUpdateInput.shape));

export async function updateEventAs(viewer: EventViewer, event: Event, payload: Record<string, unknown>) {
  const changes = stripProtectedEventFields(payload);
  // A field that belongs to the other role is a matter of permission, not of a badly formed request.
  const keys = Object.keys(changes);
  if (viewer.role === "creator" && keys.some((key) => RECIPIENT_FIELDS.has(key))) {
    throw forbidden("Only the recipient can write the thank-you message.");
  }
  if (viewer.role === "recipient" && keys.some((key) => ORGANISER_FIELDS.has(key))) {
    throw forbidden("Only the organiser can change this Chorus.");
  }
  if (viewer.role === "creator") {
    const input = parseWith(updateEventInput(), changes);
    if (input.occasion === "other" && !(input.occasionOther ?? event.occasionOther)) {
      throw badRequest("Some fields need your attention.", { occasionOther: "Say what the occasion is." });
    }
    const updated = (await updateEvent(db(), event.id, input))!;
    // The opening card shows the title and the occasion.
    if (updated.title !== event.title || updated.occasion !== event.occasion || updated.occasionOther !== event.occasionOther) {
      await queuePiecePreparation(event.id);
    }
    return updated;
  }
  if (viewer.role === "recipient") {
    return (await updateEvent(db(), event.id, parseWith(recipientUpdateInput, changes)))!;
  }
  if (!viewer.user && viewer.role !== "view-only") throw new ApiError(401, "UNAUTHORIZED", "Please log in to continue.");
  throw forbidden("Only the organiser can change this Chorus.");
}

export async function setDeleted(event: Event, deleted: boolean) {
  return db().transaction(async (tx) => {
    const saved = (await setEventDeleted(tx, event.id, deleted))!;
    // A deleted Chorus sends no gift card: its contributions go back (restoring it does not reopen the gift).
    if (deleted) await queueGiftRefunds(event.id, tx);
    return saved;
  });
}

export async function rotateKey(event: Event, which: "privateKey" | "viewKey") {
  return (await rotateEventKeys(db(), event.id, which))!;
}

/** Spec §4 "marked opened": the recipient opened their page (the first time is kept). */
export async function markEventOpened(event: Event) {
  return (await markEventOpenedOnce(db(), event.id))!;
}
