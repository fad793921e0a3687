import { formatMoney } from "./money";

// A limit held by a payment page that is still open (docs/decisions/046-limits-held-while-a-page-is-open.md):
// what someone refused for it is told is when the hold lets go, should that payment not be completed.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * How long a hold lasts until its page's own expiry is known: as long as any page may stay open
 * (Stripe's 24 hours) and a little longer, so a page opened while the hold is made never outlives it.
 */
export const PROVISIONAL_HOLD_MS = 24 * HOUR + 10 * MINUTE;

/** "in under a minute", "in about 25 minutes", "in about 3 hours": how long until a held limit frees up. */
export function describeWait(until: Date, now: Date) {
  const wait = until.getTime() - now.getTime();
  if (wait < MINUTE) return "in under a minute";
  if (wait < 90 * MINUTE) {
    const minutes = Math.ceil(wait / MINUTE);
    return `in about ${minutes} minute${minutes === 1 ? "" : "s"}`;
  }
  const hours = Math.round(wait / HOUR);
  return `in about ${hours} hour${hours === 1 ? "" : "s"}`;
}

export interface GiftRoom {
  /** The card's largest amount. */
  maxAmount: number;
  /** What paid contributions hold on it. */
  pot: number;
  /** What contributions with a payment page still open hold on it. */
  held: number;
  /** When the last of those pages expires, should none of them be paid. */
  lastFreesAt: Date | null;
  currency: string;
}

/** What still fits on the card now: its largest amount less the pot and what open payment pages hold. */
export const roomLeft = (room: Pick<GiftRoom, "maxAmount" | "pot" | "held">) => Math.max(0, room.maxAmount - room.pot - room.held);

/**
 * Why `amount` does not fit on the card now, in words, or null when it does: how much room is left,
 * or that the rest is held by payments in progress and when it is free again if they are not completed.
 */
export function giftRoomRefusal(amount: number, room: GiftRoom, now: Date): string | null {
  const left = roomLeft(room);
  if (amount <= left) return null;
  const money = (value: number) => formatMoney(value, room.currency);
  const when = room.lastFreesAt ? ` ${describeWait(room.lastFreesAt, now)}` : " when that payment page expires";
  if (left === 0 && room.held > 0)
    return `The rest of this card (${money(room.held)}) is held by a payment in progress: it is free again${when} if that payment is not completed.`;
  if (left === 0) return "This card is full.";
  if (room.held > 0)
    return `At most ${money(left)} more fits on this card now: another ${money(room.held)} is held by a payment in progress, and is free again${when} if it is not completed.`;
  return `At most ${money(left)} more fits on this card.`;
}
