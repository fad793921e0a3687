import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { listMediaOfEvent } from "~/models/media.server";
import { makeTempDir } from "../media/support/media-fixtures";
import { createUser } from "../support/accounts";
import { chromiumPath, gotoHydrated, newPage, PHONE } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";

let dir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
let emptyPhoto: string;
beforeAll(async () => {
  dir = await makeTempDir("e2e-upload-failures");
  emptyPhoto = dir.path("empty.jpg");
  await writeFile(emptyPhoto, "");
});
afterAll(async () => {
  await dir?.remove();
});

describe.skipIf(!chromiumPath)("a file that cannot be sent, on a phone", () => {
  const e2e = useServerAndBrowser();

  test("with JavaScript: an empty file is refused at once, looks refused, offers no Retry and is not offered again after a reload", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    await gotoHydrated(page, `/e/${event.uuid}`);
    await page.getByLabel("Photos and videos").setInputFiles([emptyPhoto]);
    await page.getByRole("button", { name: "Upload" }).click();

    const card = page.locator(".upload-item").filter({ hasText: "empty.jpg" });
    await card.getByText("This file is empty.").waitFor();
    expect(await card.textContent()).toContain("Not sent");
    expect(await card.getByRole("button", { name: "Retry" }).count()).toBe(0);
    // Failure looks like failure: the reason in words, an icon, an error border and no progress bar.
    expect(await card.locator("progress").count()).toBe(0);
    expect(await card.locator(".upload-item__error-icon").count()).toBe(1);
    const border = await card.evaluate((el) => getComputedStyle(el).borderTopColor);
    const danger = await page.evaluate(() => {
      const probe = document.createElement("div");
      probe.style.color = "var(--danger)";
      document.body.append(probe);
      const color = getComputedStyle(probe).color;
      probe.remove();
      return color;
    });
    expect(border).toBe(danger);

    await gotoHydrated(page, `/e/${event.uuid}`);
    await page.getByLabel("Photos and videos").waitFor();
    expect(await page.getByText(/interrupted/).count()).toBe(0);
    expect(await listMediaOfEvent(db(), event.id)).toEqual([]);
    await page.context().close();
  });

  test("without JavaScript: the plain form says the chosen file is empty", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    await page.goto(`/e/${event.uuid}`);
    await page.getByLabel("Your name").fill("Sam");
    await page.getByLabel("Photos and videos").setInputFiles([emptyPhoto]);
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Upload" }).click()]);
    const toast = await page.locator(".toasts").first().innerHTML();
    expect(toast).toContain("This file is empty.");
    expect(toast).not.toContain("Choose a photo or a video");
    expect(await listMediaOfEvent(db(), event.id)).toEqual([]);
    await page.context().close();
  });
});
