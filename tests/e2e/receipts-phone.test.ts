import { describe, expect, test } from "vitest";
import { createUser, lastMailTo, uniqueEmail } from "../support/accounts";
import { chromiumPath, newPage, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { until } from "../support/wait";

// A contributor's receipt on a phone (docs/decisions/048): the link in their receipt e-mail opens it
// without an account and without JavaScript, at 375 px, and it prints as the receipt alone.

describe.skipIf(!chromiumPath)("a contributor's receipt on a phone, in Chromium", () => {
  const e2e = useServerAndBrowser({ JOB_POLL_SECONDS: "0.5" });

  test("without JavaScript at 375 px: the receipt e-mail's link shows what was paid, for which Chorus", async () => {
    const event = await createTestEvent(await createUser(), { title: "Ana turns 40" });
    const email = uniqueEmail("planter");
    const contributor = new TestClient(e2e.server.url);
    const started = await contributor.post("/api/v2/tree/contributions", { eventUuid: event.uuid, name: "Bea", email, quantity: 3 });
    const paid = await contributor.form(new URL(started.body.data.url).pathname, {
      cardNumber: "4242 4242 4242 4242",
      expiry: "12 / 40",
      cvc: "123",
    });
    expect(paid.status).toBe(302);
    const mail = await until(async () => (await lastMailTo(email))?.text?.includes("/receipts/") && (await lastMailTo(email))!, {
      timeout: 20_000,
      what: "the receipt e-mail",
    });
    const link = new URL(/https?:\/\/\S+\/receipts\/\S+/.exec(mail.text)![0]);

    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole("heading", { name: "Receipt" }).waitFor();
    const receipt = page.locator(".receipt");
    expect(await receipt.textContent()).toContain("3 trees, for Ana turns 40");
    expect(await receipt.textContent()).toContain("$7.50");
    expect(await receipt.textContent()).toContain(email);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, "receipt-phone");
    await page.emulateMedia({ media: "print" });
    expect(await page.locator(".site-header").isVisible()).toBe(false);
    expect(await receipt.isVisible()).toBe(true);
    await page.context().close();
  });
});
