import { canonicalTimeZone } from "./zoned-time";

// A short list people can scan on a phone: one or two zones per populated offset. Any other
// valid zone (the browser's own, say) is added to the list when it is the chosen one.
const COMMON_ZONES = [
  "Pacific/Honolulu",
  "America/Anchorage",
  "America/Los_Angeles",
  "America/Phoenix",
  "America/Denver",
  "America/Chicago",
  "America/Mexico_City",
  "America/New_York",
  "America/Toronto",
  "America/Bogota",
  "America/Halifax",
  "America/Santiago",
  "America/St_Johns",
  "America/Sao_Paulo",
  "America/Argentina/Buenos_Aires",
  "Atlantic/Azores",
  "UTC",
  "Europe/London",
  "Europe/Dublin",
  "Europe/Lisbon",
  "Africa/Lagos",
  "Europe/Paris",
  "Europe/Berlin",
  "Europe/Madrid",
  "Europe/Rome",
  "Europe/Amsterdam",
  "Europe/Stockholm",
  "Europe/Warsaw",
  "Africa/Johannesburg",
  "Africa/Cairo",
  "Europe/Athens",
  "Europe/Helsinki",
  "Europe/Kyiv",
  "Asia/Jerusalem",
  "Europe/Istanbul",
  "Europe/Moscow",
  "Africa/Nairobi",
  "Asia/Riyadh",
  "Asia/Dubai",
  "Asia/Karachi",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Asia/Dhaka",
  "Asia/Bangkok",
  "Asia/Jakarta",
  "Asia/Ho_Chi_Minh",
  "Asia/Singapore",
  "Asia/Manila",
  "Asia/Hong_Kong",
  "Asia/Shanghai",
  "Asia/Taipei",
  "Australia/Perth",
  "Asia/Seoul",
  "Asia/Tokyo",
  "Australia/Adelaide",
  "Australia/Darwin",
  "Australia/Brisbane",
  "Australia/Sydney",
  "Australia/Melbourne",
  "Pacific/Auckland",
];

export interface TimeZoneOption {
  value: string;
  label: string;
}

function offsetMinutes(timeZone: string, now: Date) {
  const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(now)
    .find((part) => part.type === "timeZoneName")?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? "");
  return match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

const formatOffset = (minutes: number) => {
  const abs = Math.abs(minutes);
  return `UTC${minutes < 0 ? "−" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
};

/** "(UTC+01:00) Paris"; the city is the zone's last part as written here, not the engine's alias. */
function optionFor(zone: string, now: Date): (TimeZoneOption & { offset: number }) | null {
  const value = canonicalTimeZone(zone);
  if (!value) return null;
  const offset = offsetMinutes(value, now);
  const city = zone === "UTC" ? "Coordinated Universal Time" : zone.split("/").pop()!.replace(/_/g, " ");
  return { value, label: `(${formatOffset(offset)}) ${city}`, offset };
}

/** The zones offered, by offset, with `chosen` among them when it is a valid zone. */
export function timeZoneOptions(chosen: string, now = new Date()): TimeZoneOption[] {
  const options = COMMON_ZONES.map((zone) => optionFor(zone, now)).filter((o) => o !== null);
  const chosenValue = canonicalTimeZone(chosen);
  if (chosenValue && !options.some((o) => o.value === chosenValue)) options.push(optionFor(chosenValue, now)!);
  const unique = [...new Map(options.map((o) => [o.value, o])).values()];
  return unique.sort((a, b) => a.offset - b.offset || a.label.localeCompare(b.label)).map(({ value, label }) => ({ value, label }));
}
