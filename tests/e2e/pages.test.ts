import crypto from "node:crypto";
import { describe, expect, test } from "vitest";
import { createUser, PASSWORD } from "../support/accounts";
import { chromiumPath, collectPageErrors, gotoHydrated, logInBrowser, newPage, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";

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

  test("public pages fit a 375px screen without JavaScript", async () => {
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

  test("screenshots of the home page and the dashboard, on desktop and phone", async () => {
    const { email } = await createUser();
    for (const [label, viewport] of [
      ["desktop", undefined],
      ["phone", PHONE],
    ] as const) {
      const page = await newPage(e2e.browser, e2e.server.url, viewport ? { viewport } : {});
      await logInBrowser(page, email, PASSWORD);
      await gotoHydrated(page, "/");
      await saveScreenshot(page, `home-${label}`);
      await gotoHydrated(page, "/dashboard");
      await page.getByRole("heading", { name: "My Choruses" }).waitFor();
      await saveScreenshot(page, `dashboard-${label}`);
      await page.context().close();
    }
  });
});
