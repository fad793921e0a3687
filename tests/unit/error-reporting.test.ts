import { describe, expect, test } from "vitest";
import {
  SENTRY_DENY_URLS,
  SENTRY_IGNORE_ERRORS,
  SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE,
  SENTRY_REPLAYS_SESSION_SAMPLE_RATE,
  SENTRY_TRACES_SAMPLE_RATE,
  isIgnoredError,
} from "~/domain/error-reporting";

const APP_SCRIPT = "https://chorus.test/build/_shared/chunk-ABC.js";

test("the sample rates are exactly the spec's", () => {
  expect(SENTRY_TRACES_SAMPLE_RATE).toBe(0.01);
  expect(SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE).toBe(0.001);
  expect(SENTRY_REPLAYS_SESSION_SAMPLE_RATE).toBe(0);
});

test("both lists hold only strings and regular expressions Sentry accepts", () => {
  for (const pattern of SENTRY_IGNORE_ERRORS) expect(typeof pattern === "string" || pattern instanceof RegExp).toBe(true);
  for (const pattern of SENTRY_DENY_URLS) expect(pattern).toBeInstanceOf(RegExp);
});

describe("ignored messages", () => {
  test.each([
    ["cross-origin script error", "Script error."],
    ["cross-origin script error without the dot", "Script error"],
    ["failed JSONP request", "JSONP request to https://widget.example/cb failed"],
    ["timed-out JSONP request", "JSONP request to https://widget.example/cb timed out"],
    ["ResizeObserver loop limit", "ResizeObserver loop limit exceeded"],
    ["ResizeObserver undelivered notifications", "ResizeObserver loop completed with undelivered notifications."],
    [
      "service worker registration",
      "Failed to register a ServiceWorker for scope ('https://share.chorus.test/') with script ('https://share.chorus.test/sw.js'): An unknown error occurred when fetching the script.",
    ],
    [
      "service worker update",
      "Failed to update a ServiceWorker for scope ('https://share.chorus.test/'): The script resource is behind a redirect.",
    ],
    ["service worker in lower case", "The service worker: Failed to register"],
    ["hydration failure", "Hydration failed because the initial UI does not match what was rendered on the server."],
    [
      "hydration error",
      "There was an error while hydrating. Because the error happened outside of a Suspense boundary, the entire root will switch to client rendering.",
    ],
    ["text mismatch", 'Text content does not match server-rendered HTML. Server: "1" Client: "2"'],
    ...[418, 419, 422, 423, 425].map((code) => [
      `minified React error #${code}`,
      `Minified React error #${code}; visit https://reactjs.org/docs/error-decoder.html?invariant=${code} for the full message`,
    ]),
  ])("%s", (_case, message) => {
    expect(isIgnoredError(message!, APP_SCRIPT)).toBe(true);
  });
});

describe("denied script URLs", () => {
  test.each([
    "https://connect.facebook.net/en_US/sdk.js",
    "https://www.facebook.com/plugins/like.php",
    "https://platform.twitter.com/widgets.js",
    "https://assets.pinterest.com/js/pinit.js",
    "chrome-extension://abcdefghijklmnop/content.js",
    "moz-extension://1234-5678/inject.js",
    "safari-extension://com.example.ext/script.js",
    "safari-web-extension://ABCD-1234/content.js",
    "https://www.googletagmanager.com/gtm.js?id=GTM-XXXX",
    "https://www.google-analytics.com/analytics.js",
    "https://stats.g.doubleclick.net/dc.js",
    "https://static.hotjar.com/c/hotjar-123.js?sv=6",
    "https://www.clarity.ms/tag/abc",
  ])("%s", (url) => {
    expect(isIgnoredError("TypeError: x is not a function", url)).toBe(true);
  });
});

describe("errors that stay reported", () => {
  test("an ordinary app error from our own script", () => {
    expect(isIgnoredError("TypeError: Cannot read properties of undefined (reading 'name')", APP_SCRIPT)).toBe(false);
    expect(isIgnoredError("Cannot read properties of undefined")).toBe(false);
  });

  test("a message that only mentions a script error", () => {
    expect(isIgnoredError("Script error. while saving the track")).toBe(false);
  });

  test("a React error that is not about hydration", () => {
    expect(isIgnoredError("Minified React error #185; visit https://reactjs.org/docs/error-decoder.html?invariant=185")).toBe(false);
    expect(isIgnoredError("Minified React error #4180")).toBe(false);
  });

  test("a service worker message that is not a failed registration or update", () => {
    expect(isIgnoredError("ServiceWorker posted an unexpected message")).toBe(false);
  });

  test("our own page whose URL merely mentions a tracker", () => {
    expect(isIgnoredError("Boom", "https://chorus.test/share?utm_source=facebook.com")).toBe(false);
    expect(isIgnoredError("Boom", "https://notfacebook.com/x.js")).toBe(false);
  });
});
