// How the event page writes moments, always in the event's own time zone, so the
// server-rendered text and the hydrated page agree whatever the reader's clock says.

// Making a formatter costs ~50× using one (the time zone's rules are looked up), and the public
// event page writes its deadline on every visit: formatters are kept, one per zone and format.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string, options: Intl.DateTimeFormatOptions) {
  const key = `${timeZone}\n${JSON.stringify(options)}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat("en-GB", { timeZone: safeZone(timeZone), ...options });
    // A bound no real use reaches (zones × formats): only a flood of invalid zones could grow it.
    if (formatters.size >= 2000) formatters.clear();
    formatters.set(key, made);
  }
  return made;
}

function safeZone(timeZone: string) {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return timeZone;
  } catch {
    return "UTC";
  }
}

function partsOf(instant: Date | string, timeZone: string, options: Intl.DateTimeFormatOptions) {
  const parts = formatter(timeZone, options).formatToParts(new Date(instant));
  return (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
}

/** "Friday 4 December": the contributor's deadline, as people say it. */
export function formatLongDay(instant: Date | string, timeZone: string) {
  const part = partsOf(instant, timeZone, { weekday: "long", day: "numeric", month: "long" });
  return `${part("weekday")} ${part("day")} ${part("month")}`;
}

/** "Fri 4 Dec 2026, 18:30 (Europe/Paris)": for the organiser, who needs the exact moment. */
export function formatMoment(instant: Date | string, timeZone: string) {
  const part = partsOf(instant, timeZone, {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  const month = part("month").slice(0, 3);
  return `${part("weekday")} ${part("day")} ${month} ${part("year")}, ${part("hour")}:${part("minute")} (${safeZone(timeZone).replace(/_/g, " ")})`;
}

/** "Fri 4 Dec 2026": a deadline's day, for lists such as the dashboard. */
export function formatDeadlineDay(instant: Date | string, timeZone = "UTC") {
  const part = partsOf(instant, timeZone, { weekday: "short", day: "numeric", month: "short", year: "numeric" });
  return `${part("weekday")} ${part("day")} ${part("month").slice(0, 3)} ${part("year")}`;
}

/** "4 Dec": short enough for a table cell on a phone. */
export function formatShortDay(instant: Date | string, timeZone: string) {
  const part = partsOf(instant, timeZone, { day: "numeric", month: "short" });
  return `${part("day")} ${part("month").slice(0, 3)}`;
}

/** The wall-clock time ("18:30") at `instant` in `timeZone`, for a time input. */
export function timeIn(instant: Date | string, timeZone: string) {
  const part = partsOf(instant, timeZone, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return `${part("hour")}:${part("minute")}`;
}
