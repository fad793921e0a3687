import type { Event, User } from "drizzle/schema";
import { isUnlocked, mayWatch, PAYMENT_REQUIRED_MESSAGE, VIDEO_LOCKED_MESSAGE } from "~/domain/commerce/unlock";
import { db } from "~/lib/db.server";
import { ApiError } from "~/lib/http.server";
import { findEventById } from "~/models/event.server";
import { findUserById } from "~/models/user.server";

// Where every route asks what payment unlocks (docs/decisions/018 and 045); the rule itself is
// app/domain/commerce/unlock.ts.

/** Whether this Chorus may go to its recipient, play on their and the view-only link, and be downloaded in full. */
export async function eventUnlocked(event: Pick<Event, "paid" | "occasion" | "creatorId" | "includedWithMembershipAt">) {
  if (event.paid) return true;
  return isUnlocked(event, await findUserById(db(), event.creatorId));
}

/** The cart page of an event: where a refused delivery or download sends the organiser. */
export const cartPathOf = (event: Pick<Event, "uuid">) => `/e/${event.uuid}/checkout`;

/** Refuses delivery of a Chorus that is not paid for, with the 402 the API and the page both show. */
export async function requireUnlocked(event: Event) {
  if (await eventUnlocked(event)) return;
  throw new ApiError(402, "PAYMENT_REQUIRED", PAYMENT_REQUIRED_MESSAGE, { payment: cartPathOf(event) });
}

/**
 * Why a file of this event's video (a published version's MP4, poster or stream; a finished
 * render's MP4 or poster) is refused, or null when it may be sent. A locked Chorus's video plays
 * only for its organiser and staff, whatever link is used; its full-quality download waits for
 * payment, for them too. `viewer` (a session lookup) is only asked when the Chorus is locked.
 */
export async function videoFileRefusal(eventId: string, viewer: () => Promise<User | null>, { download }: { download: boolean }) {
  const event = await findEventById(db(), eventId, { withDeleted: true });
  if (event && (await eventUnlocked(event))) return null;
  if (download) return PAYMENT_REQUIRED_MESSAGE;
  return event && mayWatch(event, false, await viewer()) ? null : VIDEO_LOCKED_MESSAGE;
}
