import crypto from "node:crypto";
import fs from "node:fs";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { createUser, PASSWORD } from "../support/accounts";
import { chromiumPath, collectPageErrors, DESKTOP, gotoHydrated, logInBrowser, newPage, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";
import { expectBrowserConsoleError } from "../support/fail-on-browser-console-error";

/** Public pages, with the status each answers: events are not built yet, so /e/:uuid is a 404 page. */
const PUBLIC_PAGES = [
  { path: "/", status: 200 },
  { path: "/auth/login", status: 200 },
  { path: "/auth/register", status: 200 },
  { path: "/start-a-chorus", status: 200 },
  { path: "/settings/billing", status: 200 },
  { path: `/e/${crypto.randomUUID()}`, status: 404 },
];

describe.skipIf(!chromiumPath)("pages in Chromium", () => {
  const e2e = useServerAndBrowser();

  /** The unknown Chorus of PUBLIC_PAGES answers 404 by design, and Chromium logs any 404 document as a failed load. */
  const expectTheUnknownChorus = () =>
    expectBrowserConsoleError(
      /status of 404 \(Not Found\) \(http:\/\/[^/]+\/e\/[0-9a-f-]{36}\)$/,
      "a Chorus that does not exist is a 404 page",
    );

  test("public pages fit a 375px screen without JavaScript", async () => {
    expectTheUnknownChorus();
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    for (const { path, status } of PUBLIC_PAGES) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(status);
      expect(await page.locator("main h1").count(), path).toBe(1);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, `${path} is ${scrollWidth}px wide`).toBeLessThanOrEqual(PHONE.width);
    }
    await page.context().close();
  });

  test("public pages load and hydrate without console errors", async () => {
    expectTheUnknownChorus();
    const page = await newPage(e2e.browser, e2e.server.url);
    const errors = collectPageErrors(page);
    const expected: string[] = [];
    for (const { path, status } of PUBLIC_PAGES) {
      const response = await gotoHydrated(page, path);
      expect(response?.status(), path).toBe(status);
      // Chromium logs any 404 document as a failed resource; for /e/:uuid that status is by design.
      if (status === 404)
        expected.push(
          `console.error: Failed to load resource: the server responded with a status of 404 (Not Found) (${e2e.server.url}${path})`,
        );
    }
    expect(errors).toEqual(expected);
    await page.context().close();
  });

  /**
   * A screenshot kept under test-results/ for a person to look at, of a page that fits its screen
   * and shows the shell's landmarks, and that is a picture of the page, not a blank one.
   */
  async function checkedScreenshot(page: Page, name: string, width: number) {
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.scrollingElement!.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(innerWidth, name).toBe(width);
    expect(scrollWidth, `${name} is ${scrollWidth}px wide on a ${innerWidth}px screen`).toBeLessThanOrEqual(innerWidth);
    for (const landmark of ["banner", "main", "contentinfo"] as const) {
      expect(await page.getByRole(landmark).first().isVisible(), `${name}: ${landmark}`).toBe(true);
    }
    expect(await page.locator("main h1").first().isVisible(), `${name}: the page's heading`).toBe(true);

    const file = await saveScreenshot(page, name);
    expect(fs.statSync(file).size, `${name}.png`).toBeGreaterThan(10_000);
    const image = sharp(file);
    // Full-page: as wide as the screen (nothing sticks out), at least as tall, and not one flat colour.
    const { width: imageWidth, height: imageHeight } = await image.metadata();
    expect(imageWidth, name).toBe(width);
    expect(imageHeight, name).toBeGreaterThanOrEqual((page.viewportSize()?.height ?? 0) - 1);
    const { channels } = await image.stats();
    expect(Math.max(...channels.map((c) => c.stdev)), `${name} is not blank`).toBeGreaterThan(10);
  }

  test("screenshots of the home page and the dashboard, on desktop and phone, fit their screen and show the page", async () => {
    const { email } = await createUser();
    for (const [label, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      const page = await newPage(e2e.browser, e2e.server.url, { viewport });
      await logInBrowser(page, email, PASSWORD);
      await gotoHydrated(page, "/");
      await checkedScreenshot(page, `home-${label}`, viewport.width);
      await gotoHydrated(page, "/dashboard");
      await page.getByRole("heading", { name: "My Choruses" }).waitFor();
      await checkedScreenshot(page, `dashboard-${label}`, viewport.width);
      await page.context().close();
    }
  });
  test("screenshots of a Chorus as its contributor, its recipient and its organiser see it, and of the log-in page, on desktop and phone", async () => {
    const organiser = await createUser();
    const chorus = await createTestEvent(organiser);
    for (const [label, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      const visitor = await newPage(e2e.browser, e2e.server.url, { viewport });
      await gotoHydrated(visitor, "/auth/login");
      await checkedScreenshot(visitor, `login-${label}`, viewport.width);
      await gotoHydrated(visitor, `/e/${chorus.uuid}`);
      await checkedScreenshot(visitor, `contributor-${label}`, viewport.width);
      await gotoHydrated(visitor, `/e/${chorus.uuid}?privateKey=${chorus.privateKey}`);
      await checkedScreenshot(visitor, `recipient-${label}`, viewport.width);
      await visitor.context().close();

      const page = await newPage(e2e.browser, e2e.server.url, { viewport });
      await logInBrowser(page, organiser.email, PASSWORD);
      await gotoHydrated(page, `/e/${chorus.uuid}`);
      await checkedScreenshot(page, `organiser-${label}`, viewport.width);
      await page.context().close();
    }
  });
});
