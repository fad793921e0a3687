import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { createUser } from "../support/accounts";
import { chromiumPath, collectPageErrors, gotoHydrated, newPage, PHONE } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";

// The pages a newcomer meets paint as soon as their HTML has arrived: the styles are in the page,
// nothing in the head makes the browser wait for another file, and the page's CSP lets them apply
// (docs/decisions/037-styles-in-the-page.md).

/** Brand blue and page background of app/styles/app.css, as Chromium reports computed colours. */
const BRAND = "rgb(31, 95, 214)";
const PAGE_BACKGROUND = "rgb(247, 249, 252)";

async function newcomerPages() {
  const event = await createTestEvent(await createUser());
  return ["/", "/auth/login", `/e/${event.uuid}`, `/e/${event.uuid}?privateKey=${event.privateKey}`];
}

/** Stylesheets the page asked for over the network, and messages of Chromium's CSP checks. */
function watchStylesAndPolicy(page: Page) {
  const stylesheets: string[] = [];
  const violations: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "stylesheet") stylesheets.push(request.url());
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return { stylesheets, violations };
}

/** What the first paint of a page waits for in its head, and whether the page's styles apply. */
const headAndLook = (page: Page) =>
  page.evaluate(() => ({
    blocking: [
      ...document.head.querySelectorAll('link[rel~="stylesheet"], script[src]:not([async]):not([defer]):not([type="module"])'),
    ].map((element) => element.outerHTML),
    background: getComputedStyle(document.body).backgroundColor,
    bodyFont: getComputedStyle(document.body).fontFamily,
    headingFont: getComputedStyle(document.querySelector("main h1")!).fontFamily,
  }));

describe.skipIf(!chromiumPath)("styles written into the page", () => {
  const e2e = useServerAndBrowser();

  test("a newcomer's pages are styled with JavaScript off, from no stylesheet request, with no CSP violation", async () => {
    const paths = await newcomerPages();
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    const seen = watchStylesAndPolicy(page);
    for (const path of paths) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      const look = await headAndLook(page);
      expect(look.blocking, path).toEqual([]);
      expect(look.background, path).toBe(PAGE_BACKGROUND);
      expect(look.bodyFont, path).toMatch(/^"Inter Variable"/);
      expect(look.headingFont, path).toMatch(/^Fraunces/);
    }
    expect(seen.stylesheets).toEqual([]);
    expect(seen.violations).toEqual([]);
    await page.context().close();
  });

  test("with JavaScript on, the pages hydrate with their styles and no console error or CSP violation", async () => {
    const paths = await newcomerPages();
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const errors = collectPageErrors(page);
    const seen = watchStylesAndPolicy(page);
    for (const path of paths) {
      await gotoHydrated(page, path);
      const look = await headAndLook(page);
      expect(look.blocking, path).toEqual([]);
      expect(look.background, path).toBe(PAGE_BACKGROUND);
    }
    expect(seen.stylesheets).toEqual([]);
    expect(seen.violations).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test("the styles stay when the root's error boundary replaces the document in the browser", async () => {
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const seen = watchStylesAndPolicy(page);
    await gotoHydrated(page, "/");
    // A navigation inside the app to a page that does not exist: the browser renders the root's
    // error boundary, which makes <html> and its head anew.
    await page.evaluate(() =>
      (window as unknown as { __remixRouter: { navigate: (to: string) => void } }).__remixRouter.navigate("/no-such-page"),
    );
    await expect.poll(() => page.locator("main h1").textContent()).toBe("We couldn't find that page");
    const look = await page.evaluate(() => ({
      background: getComputedStyle(document.body).backgroundColor,
      button: getComputedStyle(document.querySelector("main a.button")!).backgroundColor,
    }));
    expect(look).toEqual({ background: PAGE_BACKGROUND, button: BRAND });
    expect(seen.stylesheets).toEqual([]);
    await page.context().close();
  });
});
