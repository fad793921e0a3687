import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";
import { watchBrowserConsole } from "./fail-on-browser-console-error";

/**
 * The system Chromium drives the end-to-end tests: `npx playwright install` downloads
 * a browser, which this project never does. Without one, the e2e files skip. Debian's headless
 * shell (`chromium-headless-shell`, the same Blink and V8 without the desktop browser around them)
 * comes first when it is installed: a browser test file cost less CPU in it than in the full
 * browser's headless mode (docs/decisions/016).
 */
const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser"];

function findChromium(): string | null {
  for (const candidate of CANDIDATES) {
    if (candidate && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

export const chromiumPath = findChromium();

// Every e2e file imports this module, and vitest runs them in one process: say it once.
const WARNED = Symbol.for("chorus.e2e.no-chromium-warned");
const registry = globalThis as { [WARNED]?: true };
if (!chromiumPath && !registry[WARNED]) {
  registry[WARNED] = true;
  console.warn("e2e: skipped — no Chromium found (install with apt-get install -y chromium chromium-headless-shell, or set CHROMIUM_PATH)");
}

/** No sandbox: tests run as root in containers. The rest keeps the browser from calling home. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** A Chromium whose pages' console errors fail the test that caused them (fail-on-browser-console-error.ts). */
export async function launchChromium(): Promise<Browser> {
  if (!chromiumPath) throw new Error("no Chromium: guard the suite with describe.skipIf(!chromiumPath)");
  return watchBrowserConsole(await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS }));
}

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 375, height: 812 } as const;

/** A fresh browser profile (no cookies) at a base URL, with or without JavaScript. */
export async function newPage(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: DESKTOP, ...options });
  // Fail within the test's own timeout, with Playwright's call log rather than vitest's bare timeout.
  context.setDefaultTimeout(10_000);
  return context.newPage();
}

/**
 * Opens a page and waits until the network is quiet: by then the app has hydrated (its first
 * effects fetch the announcements), so Escape and click-outside handlers are listening.
 */
export async function gotoHydrated(page: Page, path: string) {
  const response = await page.goto(path);
  await page.waitForLoadState("networkidle");
  return response;
}

/** Console errors and uncaught exceptions of a page, collected from the moment of the call. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console.error: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  return errors;
}

export const SCREENSHOT_DIR = fileURLToPath(new URL("../../test-results/screenshots/", import.meta.url));

/** A full-page screenshot kept as a test artifact (test-results/ is git-ignored). */
export async function saveScreenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
  return file;
}

/** Logs a browser profile in through the API, for tests about what a logged-in user sees. */
export async function logInBrowser(page: Page, email: string, password: string) {
  const reply = await page.request.post("/api/v2/auth/login", { data: { email, password } });
  if (reply.status() !== 200) throw new Error(`log-in failed: ${reply.status()} ${await reply.text()}`);
}
