import { describe, expect, test } from "vitest";
import { createUser } from "../support/accounts";
import { chromiumPath, gotoHydrated, newPage, PHONE } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe.skipIf(!chromiumPath)("the chat button on a phone", () => {
  const e2e = useServerAndBrowser();

  test("does not cover the contributor's Record a clip button, and keeps its name for screen readers", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    await gotoHydrated(page, `/e/${event.uuid}`);
    const record = page.getByRole("button", { name: "Record a clip" });
    await record.scrollIntoViewIfNeeded();
    const chat = page.locator("details.support-widget > summary");
    await chat.waitFor();
    const recordBox = (await record.boundingBox())!;
    const chatBox = (await chat.boundingBox())!;
    expect(intersects(recordBox, chatBox)).toBe(false);
    expect(chatBox.width).toBeLessThanOrEqual(56);
    expect(await chat.innerText()).toContain("Chat with us");
    await page.context().close();
  });

  test("the last line of the home page can scroll clear of it", async () => {
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    await gotoHydrated(page, "/");
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const chatBox = (await page.locator("details.support-widget > summary").boundingBox())!;
    const lastLine = await page.evaluate(() => {
      const footer = document.querySelector("footer") ?? document.body;
      const items = [...footer.querySelectorAll("a, p, li, span")].filter((el) => el.getBoundingClientRect().height > 0);
      const rects = items.map((el) => el.getBoundingClientRect());
      return Math.max(...rects.map((r) => r.bottom));
    });
    expect(lastLine).toBeLessThanOrEqual(chatBox.y);
    await page.context().close();
  });
});
