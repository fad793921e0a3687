import type { Event, Rsvp, User } from "drizzle/schema";
import { acceptsContributions } from "~/domain/event-permissions";
import { hasEditRights } from "~/domain/membership";
import { deriveViewerRole, type ViewerRole } from "~/domain/viewer-role";
import { db } from "~/lib/db.server";
import { keysMatch } from "~/lib/event-keys.server";
import { findEventById } from "~/models/event.server";
import { findRsvpByInviteToken, findRsvpOfUser } from "~/models/rsvp.server";

export interface EventKeys {
  privateKey?: string | null;
  viewKey?: string | null;
  invite?: string | null;
}

export interface EventViewer {
  role: ViewerRole;
  user: User | null;
  /** The invitee behind a personal link or the logged-in user's invitation, if any. */
  rsvp: Rsvp | null;
  /** A public viewer who may add to an event that is still collecting. */
  contributor: boolean;
}

export const keysFromUrl = (url: URL): EventKeys => ({
  privateKey: url.searchParams.get("privateKey"),
  viewKey: url.searchParams.get("viewKey"),
  invite: url.searchParams.get("invite"),
});

/** Who is looking at this event, by account and by the keys in the address (spec §4). */
export async function resolveEventViewer(user: User | null, event: Event, keys: EventKeys): Promise<EventViewer> {
  const role = deriveViewerRole({
    event,
    user,
    hasPrivateKey: keysMatch(keys.privateKey, event.privateKey),
    hasViewKey: keysMatch(keys.viewKey, event.viewKey),
  });
  let rsvp: Rsvp | null = null;
  if (keys.invite) rsvp = await findRsvpByInviteToken(db(), event.id, keys.invite);
  if (!rsvp && user) rsvp = await findRsvpOfUser(db(), event.id, user);
  return { role, user, rsvp, contributor: role === "public" && acceptsContributions(event) };
}

/**
 * Whether the files of a Chorus (its media, renders and published videos) are kept from whoever
 * asks, even through a link signed before: a Chorus taken down shows its files to staff only.
 * `viewer` is only asked (a session lookup) when the Chorus is taken down.
 */
export async function eventFilesWithheld(eventId: string | null, viewer: () => Promise<User | null>) {
  if (!eventId) return false;
  const event = await findEventById(db(), eventId, { withDeleted: true });
  if (!event?.takenDownAt) return false;
  return !hasEditRights(await viewer());
}
