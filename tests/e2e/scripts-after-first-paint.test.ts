import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { createUser } from "../support/accounts";
import { chromiumPath, collectPageErrors, newPage, PHONE } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";
import { expectBrowserConsoleError } from "../support/fail-on-browser-console-error";

// The first paint of a page never waits for the app's scripts: the HTML the browser reads has no
// module preload or module script, and the app starts once the page has been painted, from the same modules
// (docs/decisions/039-scripts-after-first-paint.md).

async function newcomerPages() {
  const event = await createTestEvent(await createUser());
  return ["/", "/auth/login", `/e/${event.uuid}`, `/e/${event.uuid}?privateKey=${event.privateKey}`];
}

/** React has hydrated the header: its nodes carry React's own properties. */
const headerHydrated = (page: Page) =>
  page.evaluate(() => Object.keys(document.querySelector("header a.logo[aria-label]") ?? {}).some((key) => key.startsWith("__reactFiber")));

/** The first contentful paint, and when the first of the app's scripts started to download. */
const paintAndScripts = (page: Page) =>
  page.evaluate(() => {
    const scripts = performance.getEntriesByType("resource").filter((entry) => /\/build\/.*\.js/.test(entry.name));
    return {
      firstContentfulPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
      firstScriptStart: Math.min(...scripts.map((entry) => entry.startTime)),
      scripts: scripts.length,
    };
  });

describe.skipIf(!chromiumPath)("the app's scripts start after the first paint", () => {
  const e2e = useServerAndBrowser();

  test("the HTML asks for no script before the first paint, and the page then hydrates from the same modules", async () => {
    const paths = await newcomerPages();
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const errors = collectPageErrors(page);
    const policyViolations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });
    for (const path of paths) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      const html = await response!.text();
      // Remix's scripts are in the page only as the text of a <noscript>.
      const outsideNoscript = html.replace(/<noscript>[\s\S]*?<\/noscript>/g, "");
      expect(outsideNoscript, path).not.toMatch(/modulepreload|type="module"/);

      await expect.poll(() => headerHydrated(page), { message: path }).toBe(true);
      const timing = await paintAndScripts(page);
      expect(timing.firstContentfulPaint, path).not.toBeNull();
      expect(timing.scripts, path).toBeGreaterThan(0);
      expect(timing.firstScriptStart, path).toBeGreaterThanOrEqual(timing.firstContentfulPaint!);
      // Every module Remix wrote a preload for is preloaded now, after the paint.
      const written = html.match(/rel="modulepreload"/g)?.length ?? 0;
      expect(written, path).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.querySelectorAll('link[rel="modulepreload"]').length), path).toBe(written);
    }
    expect(policyViolations).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test("once hydrated, a link is followed inside the page, without loading a new document", async () => {
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    await page.goto("/auth/login");
    await expect.poll(() => headerHydrated(page)).toBe(true);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    // The logo is Remix's <Link>: before hydration a press would load /dashboard as a new page.
    await page.getByRole("link", { name: "go to your dashboard" }).click();
    await page.waitForURL((url) => url.pathname !== "/auth/login" || url.search !== "");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await page.context().close();
  });

  test("with JavaScript off the page fetches no script and its forms still post", async () => {
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (/\/build\/.*\.js/.test(request.url())) scripts.push(request.url());
    });
    await page.goto("/auth/login");
    expectBrowserConsoleError(
      /status of 401 \(Unauthorized\) \(http:\/\/[^/]+\/auth\/login\)$/,
      "the wrong password is posted on purpose, and the log-in page answers it 401",
    );
    await page.getByRole("textbox", { name: "E-mail", exact: true }).fill("nobody@example.com");
    await page.getByLabel("Password").fill("not the password");
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.getByRole("button", { name: "Log in" }).click(),
    ]);
    // The server's answer to the plain post: the form again, with the address kept.
    expect(answer.status()).toBeGreaterThanOrEqual(400);
    await page.waitForLoadState();
    expect(await page.getByRole("textbox", { name: "E-mail", exact: true }).inputValue()).toBe("nobody@example.com");
    expect(scripts).toEqual([]);
    await page.context().close();
  });
});
