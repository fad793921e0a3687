import { ANALYTICS_URL_FLAGS } from "~/domain/product";

export const ANALYTICS_COOKIE = "_ga";
/** Only this cookie format is understood; anything else could yield a wrong id (spec §5). */
export const ANALYTICS_COOKIE_PREFIX = "GA1.";
/** Gives the tag manager on the new page time to load before the event arrives (spec §9). */
export const ANALYTICS_DELAY_AFTER_REDIRECT_MS = 4000;

const URL_FLAG_PREFIX = "gtm_event_";

type EventParams = Record<string, unknown>;

function readCookie(cookieHeader: string, name: string): string | null {
  for (const pair of cookieHeader.split(";")) {
    const separator = pair.indexOf("=");
    if (separator === -1 || pair.slice(0, separator).trim() !== name) continue;
    const raw = pair
      .slice(separator + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
    try {
      return decodeURIComponent(raw);
    } catch {
      return null;
    }
  }
  return null;
}

/** `GA1.1.1234567890.1699999999` → `1234567890.1699999999`; null for any other shape. */
export function analyticsClientIdFromCookie(cookieHeader: string | null | undefined): string | null {
  if (!cookieHeader) return null;
  const value = readCookie(cookieHeader, ANALYTICS_COOKIE);
  if (!value?.startsWith(ANALYTICS_COOKIE_PREFIX)) return null;
  const match = /^\d+\.(\d+\.\d+)$/.exec(value.slice(ANALYTICS_COOKIE_PREFIX.length));
  return match?.[1] ?? null;
}

export function trackEvent(name: string, params: EventParams = {}): void {
  if (typeof window === "undefined") return;
  const target = window as Window & { dataLayer?: unknown[] };
  // The name goes last so a stray `event` param cannot rename the event.
  (target.dataLayer ??= []).push({ ...params, event: name });
}

export interface ScheduleOptions {
  setTimeout?: (callback: () => void, ms: number) => unknown;
}

export function scheduleEventAfterRedirect(name: string, params?: EventParams, options: ScheduleOptions = {}): void {
  const schedule = options.setTimeout ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
  schedule(() => trackEvent(name, params), ANALYTICS_DELAY_AFTER_REDIRECT_MS);
}

/**
 * The server marks sign-up, login and start redirects with a query flag; the page sends the event once
 * and drops the flag so a reload or shared link cannot count it again (spec §2.2).
 */
export function consumeAnalyticsUrlFlags(url: URL): { events: string[]; cleanedUrl: string | null } {
  const params = new URLSearchParams(url.search);
  const present = ANALYTICS_URL_FLAGS.filter((flag) => params.has(flag));
  if (present.length === 0) return { events: [], cleanedUrl: null };
  for (const flag of present) params.delete(flag);
  const search = params.toString();
  return {
    events: present.map((flag) => flag.slice(URL_FLAG_PREFIX.length)),
    cleanedUrl: `${url.pathname}${search ? `?${search}` : ""}${url.hash}`,
  };
}
