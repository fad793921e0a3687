import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { insertPostcard } from "~/models/postcard.server";
import { createUser, PASSWORD } from "../support/accounts";
import { chromiumPath, DESKTOP, gotoHydrated, logInBrowser, newPage, PHONE } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";
import { expectBrowserConsoleError } from "../support/fail-on-browser-console-error";

// The chat button floats over the bottom right corner of every page, where forms put buttons and
// errors. Scrolled anywhere on a customer's form pages, a phone's and a desktop's, it is over none.

/** A form's buttons and the messages that say what went wrong. */
const FORM_PARTS = "main :is(button, input[type=submit], .button, .field-error, .form-error, [role=alert])";
/** Scrolled by less than the chat button and the smallest button are tall together, no overlap is missed. */
const STEP = 80;

/** What the chat button covers at this scroll position, once it has settled; null while it is hidden. */
const coveredNow = (page: Page) =>
  page.evaluate(async (selector) => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const widget = document.querySelector(".support-widget")!;
    if (getComputedStyle(widget).visibility === "hidden") return null;
    const chat = widget.querySelector("summary")!.getBoundingClientRect();
    const covered: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === "hidden") continue;
      if (box.left < chat.right && chat.left < box.right && box.top < chat.bottom && chat.top < box.bottom) {
        covered.push((element.textContent ?? "").trim().slice(0, 40) || element.className);
      }
    }
    return covered;
  }, FORM_PARTS);

/** Scrolls the page from top to bottom; answers what the chat button covered where, and how often it showed. */
async function scanPage(page: Page, name: string) {
  const problems: string[] = [];
  let shown = 0;
  const height = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  for (let y = 0; ; y = Math.min(y + STEP, height)) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    const covered = await coveredNow(page);
    if (covered) shown += 1;
    if (covered?.length) problems.push(`${name}, scrolled to ${y}px: ${covered.join(", ")}`);
    if (y >= height) break;
  }
  return { problems, shown };
}

describe.skipIf(!chromiumPath)("the chat button on form pages", () => {
  const e2e = useServerAndBrowser();

  for (const viewport of [PHONE, DESKTOP]) {
    test(`at ${viewport.width} px, covers no form button or error anywhere on a customer's form pages, and still shows`, async () => {
      const organiser = await createUser();
      const event = await createTestEvent(organiser, { title: "Ana turns 40" });
      const card = await insertPostcard(db(), {
        eventId: event.id,
        creatorId: organiser.id,
        templateId: "confetti",
        message: "",
        address: null,
        amount: 499,
        currency: "usd",
      });
      const page = await newPage(e2e.browser, e2e.server.url, { viewport, reducedMotion: "reduce" });
      await logInBrowser(page, organiser.email, PASSWORD);
      // A gift card to chip into, for the contributor's gift page.
      const gift = await page.request.post(`/e/${event.uuid}`, {
        form: { intent: "gift", country: "US", productId: "LOCAL-COFFEE-USD", target: "" },
        maxRedirects: 0,
      });
      expect(gift.status()).toBeLessThan(400);

      const problems: string[] = [];
      const scan = async (name: string, visit: Page) => {
        const outcome = await scanPage(visit, name);
        problems.push(...outcome.problems);
        expect(outcome.shown, `the chat button shows somewhere on ${name}`).toBeGreaterThan(0);
      };

      await gotoHydrated(page, `/e/${event.uuid}/checkout`);
      expectBrowserConsoleError(/status of 400 .*\/checkout\?_data=/, "the checkout refuses the unknown promo code the test applies");
      await page.getByLabel("Promo code").fill("NO-SUCH-CODE");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.locator("#promoCode-error").waitFor();
      await scan("the checkout with a refused promo code", page);
      for (const [name, path] of [
        ["the arrange page", `/e/${event.uuid}/arrange`],
        ["the organiser's page", `/e/${event.uuid}`],
        ["start a Chorus", "/start-a-chorus"],
        ["the profile settings", "/settings/profile"],
        ["the billing settings", "/settings/billing"],
        ["the postcards", `/e/${event.uuid}/postcards`],
        ["a postcard's design", `/e/${event.uuid}/postcards/${card.id}`],
      ]) {
        await gotoHydrated(page, path!);
        await scan(name!, page);
      }

      const contributor = await newPage(e2e.browser, e2e.server.url, { viewport, reducedMotion: "reduce" });
      for (const [name, path] of [
        ["the contributor's page", `/e/${event.uuid}`],
        ["the gift card to chip into", `/e/${event.uuid}/gift`],
        ["the trees to plant", `/e/${event.uuid}/trees`],
      ]) {
        const reply = await gotoHydrated(contributor, path!);
        expect(reply?.status(), path).toBe(200);
        await scan(name!, contributor);
      }

      expect(problems).toEqual([]);
      await contributor.context().close();
      await page.context().close();
    }, 240_000);
  }
});
