import type { User } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { notFound } from "~/lib/http.server";
import { findRecipientById } from "~/models/event.server";
import { findRsvpById } from "~/models/rsvp.server";
import { requireManager } from "~/services/events/events.server";

// Records that belong to an event are managed by its organiser only; for anyone
// else they do not exist (no hint that the id is real).

export async function requireManagedRecipient(user: User | null, id: string) {
  const recipient = await findRecipientById(db(), id);
  if (!recipient) throw notFound("There is no recipient with this id.");
  const { event } = await requireManager(user, recipient.eventId).catch((error) => {
    throw error?.status === 403 ? notFound("There is no recipient with this id.") : error;
  });
  return { recipient, event };
}

export async function requireManagedRsvp(user: User | null, id: string) {
  const rsvp = await findRsvpById(db(), id);
  if (!rsvp) throw notFound("There is no invitee with this id.");
  const { event } = await requireManager(user, rsvp.eventId).catch((error) => {
    throw error?.status === 403 ? notFound("There is no invitee with this id.") : error;
  });
  return { rsvp, event };
}
