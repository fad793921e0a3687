import { isMember } from "~/domain/membership";
import { findOccasion } from "~/domain/occasions";

// What payment unlocks (docs/decisions/018-what-payment-unlocks.md): everything up to and including
// preview and render is open to every Chorus; sending it to the recipient and downloading the
// full-quality video need the Chorus paid, a free occasion, or the cover of a VIP membership.

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

/** Why a locked Chorus cannot be delivered or downloaded yet, for the API and the page alike. */
export const PAYMENT_REQUIRED_MESSAGE = "Pay for this Chorus to deliver it to the recipient and download the full-quality video.";
