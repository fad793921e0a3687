import type { Event } from "drizzle/schema";
import { inclusionOf } from "~/domain/commerce/pricing";
import { coveredByMembership, isFreeOccasion, isUnlocked } from "~/domain/commerce/unlock";
import { db, type Db } from "~/lib/db.server";
import { listPurchasedKeysOfEvent } from "~/models/payment.server";
import { findUserById } from "~/models/user.server";

// What an event has the right to beyond making the video (docs/decisions/018): the Chorus itself
// unlocked (delivery, full-quality download), the premium finish, and each add-on bought for it.
// A right comes from an invoice of the event not refunded in full, or from what the organiser's
// membership includes (the Chorus and its premium finish, never an add-on), which a Chorus started
// or checked out as a member keeps after the membership ends (docs/decisions/047).

export interface EventEntitlements {
  /** It may go to its recipient and be downloaded in full. */
  unlocked: boolean;
  /** The premium finish: bought for this Chorus, or included with a membership. */
  premium: boolean;
  /** Each product key bought for this Chorus or included with it. */
  has: (key: string) => boolean;
}

export async function eventEntitlements(
  event: Pick<Event, "id" | "paid" | "occasion" | "creatorId" | "includedWithMembershipAt">,
  tx: Db = db(),
): Promise<EventEntitlements> {
  const [organiser, purchased] = await Promise.all([findUserById(tx, event.creatorId), listPurchasedKeysOfEvent(tx, event.id)]);
  const context = { freeOccasion: isFreeOccasion(event.occasion), member: coveredByMembership(event, organiser) };
  const has = (key: string) => purchased.has(key) || inclusionOf(key, context) !== null;
  return { unlocked: isUnlocked(event, organiser), premium: has("premium"), has };
}
