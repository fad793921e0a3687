import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { chromiumPath, gotoHydrated, newPage, PHONE } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";

// The script in the page that puts it back where it was scrolled to reads `sessionStorage`, a
// synchronous call to the browser process, only when there can be a position to restore: not on a
// first visit (docs/decisions/043-short-tasks-after-the-first-paint.md).

/** Records each `sessionStorage` read, and whether the app's scripts had started by then. */
function recordStorageReads(page: Page) {
  return page.addInitScript(() => {
    const reads: Array<{ key: string; appStarted: boolean }> = [];
    (window as unknown as { storageReads: typeof reads }).storageReads = reads;
    const getItem = Storage.prototype.getItem;
    Storage.prototype.getItem = function (this: Storage, key: string) {
      if (this === window.sessionStorage) reads.push({ key, appStarted: "__remixContext" in window });
      return getItem.call(this, key);
    };
  });
}

const storageReadsBeforeTheApp = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { storageReads: Array<{ key: string; appStarted: boolean }> }).storageReads
      .filter((read) => !read.appStarted)
      .map((read) => read.key),
  );

describe.skipIf(!chromiumPath)("scroll restoration", () => {
  const e2e = useServerAndBrowser();

  test("a first visit reads no session storage before the app starts; a reload reads the saved position and opens there", async () => {
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    await recordStorageReads(page);
    await gotoHydrated(page, "/");
    expect(await storageReadsBeforeTheApp(page)).toEqual([]);

    await page.evaluate(() => window.scrollTo(0, 600));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(600);
    await page.reload({ waitUntil: "networkidle" });
    expect(await storageReadsBeforeTheApp(page)).toEqual(["positions"]);
    expect(await page.evaluate(() => window.scrollY)).toBe(600);
    await page.context().close();
  });
});
