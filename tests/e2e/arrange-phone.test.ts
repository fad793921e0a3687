import type { Locator } from "playwright-core";
import { describe, expect, test } from "vitest";
import { createUser, PASSWORD } from "../support/accounts";
import { chromiumPath, gotoHydrated, logInBrowser, newPage, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";

// The arrange page on a 375 px phone: the render panel's choices and the preview's Play button.

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The radio's box, and the box of the first line of the words after it in its label. */
const radioAndWords = (radio: Locator) =>
  radio.evaluate((input) => {
    const label = input.closest("label")!;
    const range = document.createRange();
    range.setStartAfter(input);
    range.setEnd(label, label.childNodes.length);
    const line = [...range.getClientRects()].find((r) => r.width > 0 && r.height > 0)!;
    const box = input.getBoundingClientRect();
    return {
      radio: { x: box.x, y: box.y, width: box.width, height: box.height },
      words: { x: line.x, y: line.y, width: line.width, height: line.height },
    };
  });

describe.skipIf(!chromiumPath)("the arrange page on a phone", () => {
  const e2e = useServerAndBrowser();

  test("each quality choice's radio sits on the same line as its words, before them", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser);
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    await logInBrowser(page, organiser.email, PASSWORD);
    await gotoHydrated(page, `/e/${event.uuid}/arrange`);
    const quality = page.locator("fieldset", { has: page.locator("legend", { hasText: "Quality" }) });
    const radios = quality.locator("input[type=radio]");
    expect(await radios.count()).toBe(2);
    for (const radio of await radios.all()) {
      await radio.scrollIntoViewIfNeeded();
      const { radio: box, words } = await radioAndWords(radio);
      const middle = box.y + box.height / 2;
      expect(middle, "the radio's middle is within its words' first line").toBeGreaterThanOrEqual(words.y);
      expect(middle).toBeLessThanOrEqual(words.y + words.height);
      expect(box.x + box.width).toBeLessThanOrEqual(words.x);
    }
    await saveScreenshot(page, "arrange-quality-phone");
    await page.context().close();
  });

  test("the preview's Play button is clear of the title card's words", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser, { title: "Happy 40th birthday to our wonderful Ana" });
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    await logInBrowser(page, organiser.email, PASSWORD);
    await gotoHydrated(page, `/e/${event.uuid}/arrange`);
    const play = page.getByRole("button", { name: /Play preview/ });
    await play.waitFor();
    const playBox = (await play.boundingBox())!;
    const words = page.locator(".preview-idle .preview-title p");
    expect(await words.count()).toBe(2);
    for (const line of await words.all()) {
      expect(await line.isVisible()).toBe(true);
      expect(intersects(playBox, (await line.boundingBox())!), `Play over "${await line.textContent()}"`).toBe(false);
    }
    await page.context().close();
  });
});
