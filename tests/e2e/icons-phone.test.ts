import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { createUser, PASSWORD } from "../support/accounts";
import { chromiumPath, gotoHydrated, logInBrowser, newPage, PHONE } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";

// On a phone or computer without an emoji font, an emoji shows as an empty box: the controls and
// the header draw their icons instead, and the recipient's two ways of saying thank you read as two
// different things.

/** The text of every control, of the site header and of the page itself, where a picture must be drawn rather than typed. */
const controlTexts = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll(".site-header, main, button, summary, a.button, .empty-state__icon, .event-video__icon")].map(
      (el) => (el as HTMLElement).innerText,
    ),
  );
const EMOJI = /\p{Extended_Pictographic}/u;

describe.skipIf(!chromiumPath)("icons on a phone", () => {
  const e2e = useServerAndBrowser();

  test("the header, menus and an empty dashboard draw their icons", async () => {
    const user = await createUser();
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    await logInBrowser(page, user.email, PASSWORD);
    await gotoHydrated(page, "/dashboard");
    await expect.poll(() => page.locator(".empty-state__icon svg").count()).toBe(1);
    expect(await page.locator(".mobile-menu > summary svg").count()).toBe(1);
    const typed = (await controlTexts(page)).filter((text) => EMOJI.test(text));
    expect(typed).toEqual([]);
    await page.context().close();
  });

  test("the recipient page has one button to send a message and another to send a video", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    await gotoHydrated(page, `/e/${event.uuid}?privateKey=${event.privateKey}`);
    await expect.poll(() => page.locator(".event-video__icon svg").count()).toBe(1);
    expect(await page.getByRole("button", { name: "Send my message" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Send my thank-you video" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Send my thank-you", exact: true }).count()).toBe(0);
    const typed = (await controlTexts(page)).filter((text) => EMOJI.test(text));
    expect(typed).toEqual([]);
    await page.context().close();
  });

  test("Add a stock photo on the organiser's page looks like a control a thumb can press", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser);
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    await logInBrowser(page, organiser.email, PASSWORD);
    await gotoHydrated(page, `/e/${event.uuid}`);
    const toggle = page.locator("summary", { hasText: "Add a stock photo" });
    await toggle.scrollIntoViewIfNeeded();
    const look = await toggle.evaluate((el) => {
      const style = getComputedStyle(el);
      return { border: style.borderTopStyle, height: el.getBoundingClientRect().height, icons: el.querySelectorAll("svg").length };
    });
    expect(look.border).toBe("solid");
    expect(look.height).toBeGreaterThanOrEqual(44);
    expect(look.icons).toBe(2);
    await toggle.click();
    await expect.poll(() => page.getByLabel("Search stock photos").isVisible()).toBe(true);
    await page.context().close();
  });
});
