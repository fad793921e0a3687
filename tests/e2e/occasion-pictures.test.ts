import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { chromiumPath, newPage, PHONE } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";

// The home page's list of occasions draws each occasion's picture from one file of symbols, within
// the page: no image document of its own each
// (docs/decisions/043-short-tasks-after-the-first-paint.md).

/** Every occasion's picture on the page is drawn: its pixels are not all the card's background. */
async function expectEveryPictureDrawn(page: Page) {
  const pictures = page.locator(".occasion-grid a svg.occasion-icon");
  const count = await pictures.count();
  expect(count).toBeGreaterThan(10);
  for (let index = 0; index < count; index += 1) {
    const picture = pictures.nth(index);
    expect(await picture.boundingBox()).toMatchObject({ width: 24, height: 24 });
    const { channels } = await sharp(await picture.screenshot()).stats();
    // The brand's blue strokes on a white card: an undrawn picture is one flat colour.
    expect(channels[0]!.stdev, `picture ${index} is drawn`).toBeGreaterThan(20);
  }
}

describe.skipIf(!chromiumPath)("occasion pictures on the home page", () => {
  const e2e = useServerAndBrowser();

  for (const javaScriptEnabled of [true, false]) {
    test(`every occasion's picture is drawn from one file (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async () => {
      const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled });
      const pictureFiles: string[] = [];
      page.on("request", (request) => {
        const path = new URL(request.url()).pathname;
        if (path.startsWith("/icons/occasions")) pictureFiles.push(path);
      });
      await page.goto("/", { waitUntil: "load" });
      await expectEveryPictureDrawn(page);
      expect(pictureFiles).toEqual(["/icons/occasions.svg"]);
      await page.context().close();
    });
  }
});
