/**
 * "Fri 4 Dec 2026": a deadline's day as people read it where the event lives.
 * Built from parts so the format does not depend on a locale's punctuation (en-GB also says "Sept").
 */
export function formatDeadlineDay(instant: Date | string, timeZone = "UTC") {
  const date = new Date(instant);
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
  } catch {
    zone = "UTC";
  }
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "short", day: "numeric", month: "short", year: "numeric" }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("weekday")} ${part("day")} ${part("month")} ${part("year")}`;
}
