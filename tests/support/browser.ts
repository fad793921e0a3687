import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";

/**
 * The system Chromium drives the end-to-end tests: `npx playwright install` downloads
 * a browser, which this project never does. Without one, the e2e files skip.
 */
const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];

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
  console.warn("e2e: skipped — no Chromium found (install with apt-get install -y chromium, or set CHROMIUM_PATH)");
}

export function launchChromium(): Promise<Browser> {
  if (!chromiumPath) throw new Error("no Chromium: guard the suite with describe.skipIf(!chromiumPath)");
  return chromium.launch({
    executablePath: chromiumPath,
    // No sandbox: tests run as root in containers. The rest keeps the browser from calling home.
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 375, height: 812 } as const;

/** A fresh browser profile (no cookies) at a base URL, with or without JavaScript. */
export function newPage(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<Page> {
  return browser.newContext({ baseURL, viewport: DESKTOP, ...options }).then((context) => context.newPage());
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
