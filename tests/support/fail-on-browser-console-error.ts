import type { Browser, BrowserContext } from "playwright-core";
import { afterEach } from "vitest";

// An error in the browser's console, or an exception no script caught, during a browser test is a
// failure nobody asserted on: make it fail the test, as fail-on-console-error.ts does for the
// server's console. Every context of a browser launched by launchChromium() (browser.ts) is watched,
// whichever way the test opens its pages. A test that provokes an error on purpose (a 402 for a
// video not paid for, a page opened with the link cut) says which, and why, with
// expectBrowserConsoleError().

interface Expected {
  pattern: RegExp;
  reason: string;
}

interface BrowserConsole {
  errors: string[];
  expected: Expected[];
}

// Kept on globalThis, like fail-on-console-error.ts: this module is a setup file and is imported by
// browser.ts, and both must see one record.
const KEY = Symbol.for("chorus.e2e.browser-console");
const registry = globalThis as { [KEY]?: BrowserConsole };
const record = (registry[KEY] ??= { errors: [], expected: [] });

// Without JavaScript a refused form comes back as its own page with a 400 and the form's errors in
// words (the tests assert on those), and the browser notes the 400: a page's answer, not a fault.
const REFUSED_FORM = /^Failed to load resource: the server responded with a status of 400 \(Bad Request\)$/;

function watch(context: BrowserContext, options: { javaScriptEnabled?: boolean } = {}) {
  const scriptless = options.javaScriptEnabled === false;
  context.on("console", (message) => {
    if (message.type() !== "error") return;
    if (scriptless && REFUSED_FORM.test(message.text())) return;
    const where = message.location().url;
    record.errors.push(`console.error: ${message.text()}${where ? ` (${where})` : ""}`);
  });
  context.on("weberror", (webError) => record.errors.push(`uncaught in the page: ${webError.error().message}`));
}

/** Watches the console of every context the browser opens (Browser.newPage opens one too). */
export function watchBrowserConsole(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    watch(context, options);
    return context;
  };
  return browser;
}

/**
 * Declares browser console errors the current test provokes on purpose: any error matching
 * `pattern` until the test ends does not fail it. `reason` says why the error is right.
 */
export function expectBrowserConsoleError(pattern: RegExp, reason: string) {
  if (!reason.trim()) throw new Error("say why the browser's console error is expected");
  record.expected.push({ pattern, reason });
}

afterEach(() => {
  const errors = record.errors.splice(0);
  const expected = record.expected.splice(0);
  const unexpected = errors.filter((error) => !expected.some(({ pattern }) => pattern.test(error)));
  if (unexpected.length) throw new Error(`the browser's console had errors:\n${unexpected.join("\n")}`);
});
