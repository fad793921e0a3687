// Wall-clock dates and times in a named time zone, without a date library: the deadline is
// typed as a day and an optional time where the organiser lives, and stored as an instant.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** When no time is given the deadline is the end of that day. */
export const END_OF_DAY = "23:59";

export const isTimeOfDay = (time: string) => TIME.test(time);

/** A real calendar day ("2026-02-30" is not). */
export function parseDay(date: string) {
  const match = DATE.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = new Date(Date.UTC(year, month - 1, day));
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** How far `timeZone`'s clocks are ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return wall - (instant - (((instant % 1000) + 1000) % 1000));
}

/** "2026-12-04" at "18:00" in "Europe/Paris" → the instant; null for a malformed day or time. */
export function zonedDateTime(date: string, time: string, timeZone: string): Date | null {
  const day = parseDay(date);
  const clock = TIME.exec(time);
  if (!day || !clock) return null;
  const wall = Date.UTC(day.year, day.month - 1, day.day, Number(clock[1]), Number(clock[2]));
  try {
    // Two passes settle the offset across a daylight-saving change.
    const guess = wall - offsetAt(wall, timeZone);
    return new Date(wall - offsetAt(guess, timeZone));
  } catch {
    return null; // unknown time zone
  }
}

/** The calendar day ("yyyy-mm-dd") in `timeZone` at `instant`. */
export function dayIn(instant: Date, timeZone: string) {
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
  } catch {
    zone = "UTC";
  }
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(
    instant,
  );
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** The engine's own spelling of a zone ("Asia/Kolkata" may be "Asia/Calcutta"); null if unknown. */
export function canonicalTimeZone(timeZone: string) {
  if (!timeZone) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
