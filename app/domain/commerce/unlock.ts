import { hasEditRights, isMember, type Role } from "~/domain/membership";
import { findOccasion } from "~/domain/occasions";

// What payment unlocks (docs/decisions/018-what-payment-unlocks.md, 045-the-video-before-payment.md):
// everything up to and including preview, render and publishing is open to every Chorus; sending it
// to the recipient, playing it on the recipient's and view-only links (and every file of the video
// they would fetch), and downloading the full-quality video need the Chorus paid, a free occasion,
// or the cover of a VIP membership (047). Until then its organiser and staff watch it on their own pages.

type Organiser = Parameters<typeof isMember>[0];

/** Get Well (spec §9): the one occasion whose Chorus costs nothing. */
export const isFreeOccasion = (occasion: string) => findOccasion(occasion)?.isFree ?? false;

/**
 * Whether what a membership includes (the Chorus itself and its premium finish) covers this Chorus:
 * while its organiser is a member, and for good once it was started or checked out as a member, so
 * a membership that ends takes back nothing it gave (docs/decisions/047).
 */
export const coveredByMembership = (event: { includedWithMembershipAt: Date | string | null }, organiser: Organiser) =>
  isMember(organiser) || event.includedWithMembershipAt !== null;

export function isUnlocked(
  event: { paid: boolean; occasion: string; includedWithMembershipAt: Date | string | null },
  organiser: Organiser,
) {
  return event.paid || isFreeOccasion(event.occasion) || coveredByMembership(event, organiser);
}

/** Whoever asks for a Chorus's video: their account, when they are signed in. */
type Watcher = { id: string; role: Role } | null;

/**
 * Whether `watcher` may play this Chorus's video (the stream, the MP4, the poster; a published
 * version or a finished render): anyone its links reach once it is unlocked; before that, only those
 * who make it, its organiser and staff, to preview it on their own pages.
 */
export function mayWatch(event: { creatorId: string }, unlocked: boolean, watcher: Watcher) {
  return unlocked || (!!watcher && (watcher.id === event.creatorId || hasEditRights(watcher)));
}

/**
 * What the recipient's and the view-only page show where the video goes: being made (nothing
 * published yet), on its way (published, not unlocked yet), unavailable (it was delivered, then
 * its payment refunded in full), or the video itself.
 */
export type AudienceVideo = "preparing" | "on-its-way" | "unavailable" | "ready";

export function audienceVideoOf(chorus: { published: boolean; unlocked: boolean; delivered: boolean }): AudienceVideo {
  if (!chorus.published) return "preparing";
  if (chorus.unlocked) return "ready";
  return chorus.delivered ? "unavailable" : "on-its-way";
}

/** Why a locked Chorus cannot be delivered or downloaded yet, for the API and the page alike. */
export const PAYMENT_REQUIRED_MESSAGE = "Pay for this Chorus to deliver it to the recipient and download the full-quality video.";

/** The answer to anyone but its organiser and staff who asks for a file of a locked Chorus's video. */
export const VIDEO_LOCKED_MESSAGE = "This video is not available yet.";
