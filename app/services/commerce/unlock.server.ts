import type { Event } from "drizzle/schema";
import { isUnlocked, PAYMENT_REQUIRED_MESSAGE } from "~/domain/commerce/unlock";
import { db } from "~/lib/db.server";
import { ApiError } from "~/lib/http.server";
import { findEventById } from "~/models/event.server";
import { findUserById } from "~/models/user.server";

/** Whether this Chorus may go to its recipient and be downloaded in full (docs/decisions/018). */
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
 * Whether a full-quality download of this event's video must wait for payment; playing it in the
 * page is not a download and stays open.
 */
export async function downloadLocked(eventId: string) {
  const event = await findEventById(db(), eventId, { withDeleted: true });
  return !!event && !(await eventUnlocked(event));
}
