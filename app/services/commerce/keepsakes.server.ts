import type { Event, User } from "drizzle/schema";
import { productByKey } from "~/domain/commerce/catalogue";
import { canManageEvent } from "~/domain/event-permissions";
import { ApiError, isApiError, notFound } from "~/lib/http.server";
import { openEventByUuid } from "~/services/events/open-event.server";
import { eventEntitlements } from "./entitlements.server";
import { cartPathOf } from "./unlock.server";

// The add-ons that deliver a file (docs/decisions/018): every original as a zip, and the guestbook
// as a printable PDF. Those who manage the Chorus download them once it has the add-on; before,
// they are sent to the cart; anyone else finds nothing at these addresses.

export const ORIGINALS_ZIP = "originals-zip";
export const GUESTBOOK_BOOK = "guestbook-book";
type Keepsake = typeof ORIGINALS_ZIP | typeof GUESTBOOK_BOOK;

const NOT_FOUND = "There is no Chorus with this id.";

/** Only a guestbook Chorus has a guestbook keepsake. */
const appliesTo = (event: Pick<Event, "guestbook">, key: Keepsake) => key !== GUESTBOOK_BOOK || event.guestbook;

/**
 * The event at /e/{rawUuid} when `user` manages it and it has keepsake `key`: a 404 for anyone
 * else (as for any Chorus they cannot see), a 402 PAYMENT_REQUIRED with the cart for a manager
 * before the add-on is bought.
 */
export async function requireKeepsake(user: User | null, rawUuid: string | undefined, key: Keepsake) {
  let opened;
  try {
    opened = await openEventByUuid(user, rawUuid, {});
  } catch (error) {
    if (isApiError(error) && error.status < 500) throw notFound(NOT_FOUND);
    throw error;
  }
  const { event, viewer } = opened;
  if (!canManageEvent(viewer.role) || !appliesTo(event, key)) throw notFound(NOT_FOUND);
  if (!(await eventEntitlements(event)).has(key)) {
    const name = productByKey(key)!.name;
    throw new ApiError(402, "PAYMENT_REQUIRED", `Add “${name}” to this Chorus to download it.`, { payment: cartPathOf(event) });
  }
  return event;
}

/** What the event and arrange pages offer the organiser: each keepsake's download, or its cart when not bought. */
export async function keepsakesOf(event: Event) {
  const { has } = await eventEntitlements(event);
  const offer = (key: Keepsake, file: string) => ({ bought: has(key), href: has(key) ? `/e/${event.uuid}/${file}` : cartPathOf(event) });
  return {
    originals: offer(ORIGINALS_ZIP, "originals.zip"),
    guestbook: appliesTo(event, GUESTBOOK_BOOK) ? offer(GUESTBOOK_BOOK, "guestbook.pdf") : null,
  };
}
