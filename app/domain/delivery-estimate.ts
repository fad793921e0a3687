import type { MailOrderKind } from "./commerce/mail-orders";
import { formatLongDay } from "./event-dates";

// When something Chorus has posted should arrive, as the vendors estimate it
// (docs/decisions/052-delivery-dates-and-tracking.md): so many business days to make it, then so
// many in the post, counted from the day the service took the order and skipping Saturdays and
// Sundays (the post and the print shops do not work them). The local services give these dates,
// since their own steps take seconds; the real vendors give their own.

const DAY_MS = 24 * 3600 * 1000;

/** The day `days` business days after `from`'s day (UTC), as YYYY-MM-DD: a Friday plus one is the Monday. */
export function addBusinessDays(from: Date, days: number): string {
  let day = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  for (let counted = 0; counted < days;) {
    day += DAY_MS;
    const weekday = new Date(day).getUTCDay();
    if (weekday !== 0 && weekday !== 6) counted += 1;
  }
  return new Date(day).toISOString().slice(0, 10);
}

/** Whether a day is written YYYY-MM-DD and exists: what a vendor's answer must give to be shown. */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/**
 * A postcard: printed and handed to the post within 2 business days, then USPS First-Class Mail,
 * which delivers a postcard in the United States within 1 to 5 business days of mailing (we say the
 * latest), and First-Class Mail International in about 8 to 10 more abroad.
 */
const POSTCARD_BUSINESS_DAYS = { make: 2, domestic: 5, abroad: 10 } as const;

export function postcardDeliveryDay(takenAt: Date, country: string): string {
  const post = country === "US" ? POSTCARD_BUSINESS_DAYS.domestic : POSTCARD_BUSINESS_DAYS.abroad;
  return addBusinessDays(takenAt, POSTCARD_BUSINESS_DAYS.make + post);
}

/**
 * A DVD is burnt, labelled and packed in 2 business days; a photo book printed and bound in 5. The
 * parcel then travels by the postage zone it was paid for (docs/decisions/029): up to 5 business days
 * in the United States, 8 to Canada and Mexico, 10 to Europe, Australia and New Zealand.
 */
const PARCEL_BUSINESS_DAYS = {
  make: { dvd: 2, keepsake: 5 } satisfies Record<MailOrderKind, number>,
  post: { US: 5, CA: 8, MX: 8 } as Readonly<Record<string, number>>,
  postElsewhere: 10,
} as const;

export function parcelDeliveryDay(takenAt: Date, kind: MailOrderKind, country: string): string {
  const post = PARCEL_BUSINESS_DAYS.post[country] ?? PARCEL_BUSINESS_DAYS.postElsewhere;
  return addBusinessDays(takenAt, PARCEL_BUSINESS_DAYS.make[kind] + post);
}

/** "Friday 12 December": an expected delivery day (YYYY-MM-DD) as people say it. */
export const formatDeliveryDay = (day: string) => formatLongDay(`${day}T12:00:00Z`, "UTC");
