/**
 * Error-reporting settings (spec §9). The rates keep the reporting bill proportional to real problems;
 * the filters drop noise nobody at Chorus can fix.
 */
export const SENTRY_TRACES_SAMPLE_RATE = 0.01;
export const SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE = 0.001;
export const SENTRY_REPLAYS_SESSION_SAMPLE_RATE = 0;

export const SENTRY_IGNORE_ERRORS: (string | RegExp)[] = [
  // Cross-origin scripts hide their errors behind this message, so there is nothing to act on.
  /^Script error\.?$/,
  // JSONP callbacks from third-party widgets time out on flaky networks.
  /JSONP\b.*\b(failed|timed out|did not invoke callback)/i,
  // Benign browser warnings: layout settles on the next frame.
  "ResizeObserver loop limit exceeded",
  "ResizeObserver loop completed with undelivered notifications",
  // The share site's service worker may fail to install or update; spec §8 says log only.
  /(ServiceWorker|service worker).*Failed to (register|update)|Failed to (register|update).*(ServiceWorker|service worker)/i,
  // Extensions and translators edit the DOM before React hydrates; React recovers by rendering on the client.
  "Hydration failed",
  "There was an error while hydrating",
  "Text content does not match server-rendered HTML",
  /Minified React error #(418|419|422|423|425)\b/,
];

/** The domain or any subdomain, matched on the host only so our own URLs mentioning it stay reported. */
const scriptHost = (domain: string) => new RegExp(`^https?://([^/?#]+\\.)?${domain.replace(/\./g, "\\.")}(?=[/:?#]|$)`, "i");

export const SENTRY_DENY_URLS: RegExp[] = [
  // Social-media embeds.
  scriptHost("facebook.net"),
  scriptHost("facebook.com"),
  scriptHost("platform.twitter.com"),
  scriptHost("pinterest.com"),
  scriptHost("pinimg.com"),
  // Errors thrown inside browser extensions are the extension's, not ours.
  /^chrome-extension:\/\//i,
  /^moz-extension:\/\//i,
  /^safari-extension:\/\//i,
  /^safari-web-extension:\/\//i,
  // Tracking scripts.
  scriptHost("googletagmanager.com"),
  scriptHost("google-analytics.com"),
  scriptHost("doubleclick.net"),
  scriptHost("hotjar.com"),
  scriptHost("clarity.ms"),
];

/** Mirrors how Sentry applies both lists: a string matches as a substring, a RegExp by test. */
export function isIgnoredError(message: string, sourceUrl?: string): boolean {
  const ignoredMessage = SENTRY_IGNORE_ERRORS.some((pattern) =>
    typeof pattern === "string" ? message.includes(pattern) : pattern.test(message),
  );
  const deniedSource = sourceUrl !== undefined && SENTRY_DENY_URLS.some((pattern) => pattern.test(sourceUrl));
  return ignoredMessage || deniedSource;
}
