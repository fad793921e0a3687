import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { createUser, loggedInUser, PASSWORD } from "../support/accounts";
import { chromiumPath, logInBrowser, newPage, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";
import { payThroughLocalService } from "../support/payments";

const fitsThePhone = async (page: Page, name: string) => {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${name} is ${width}px wide`).toBeLessThanOrEqual(PHONE.width);
};

describe.skipIf(!chromiumPath)("staff pages about money in Chromium", () => {
  const e2e = useServerAndBrowser({ JOB_POLL_SECONDS: "0.5" });

  test("without JavaScript at 375 px: find a payment, refund part of it, then make and pause a promo code", async () => {
    const organiser = await loggedInUser(e2e.server.url);
    const event = await createTestEvent(organiser.user);
    await payThroughLocalService(organiser.client, event);
    const admin = await createUser({ role: "admin" });
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    await logInBrowser(page, admin.email, PASSWORD);

    await page.goto("/admin");
    await page.getByRole("link", { name: "Payments and refunds" }).click();
    await page.waitForURL("**/admin/payments");
    await page.getByLabel("E-mail or invoice number").fill(organiser.user.email);
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === organiser.user.email);
    await fitsThePhone(page, "the payments list");
    await saveScreenshot(page, "admin-payments-phone");
    await page.locator(".staff-table a").first().click();
    await page.getByRole("heading", { name: /Payment of \$5\.00/ }).waitFor();
    await fitsThePhone(page, "a payment");

    const refund = page.locator("form.staff-refund");
    await refund.getByLabel("Part of it").check();
    await refund.getByLabel(/Amount to refund/).fill("9.00");
    await refund.getByLabel("Why").fill("The organiser asked");
    await refund.getByRole("button", { name: "Refund" }).click();
    await page.getByText("At most $5.00 is left to refund on this payment").first().waitFor();
    await fitsThePhone(page, "a refused refund");

    await refund.getByLabel(/Amount to refund/).fill("1.50");
    await refund.getByRole("button", { name: "Refund" }).click();
    await page.getByText("Refund requested", { exact: true }).first().waitFor();
    // The payment service's webhook changes the payment; the page shows it once it has come.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator("main").textContent();
        },
        { timeout: 20_000 },
      )
      .toContain("$1.50 refunded so far");
    await fitsThePhone(page, "a partly refunded payment");
    await saveScreenshot(page, "admin-payment-phone");

    await page.getByRole("navigation", { name: "Staff pages" }).getByRole("link", { name: "Promo codes" }).click();
    await page.waitForURL("**/admin/promo-codes");
    await page.getByLabel("How much").fill("120");
    await page.getByRole("button", { name: "Create code" }).click();
    await page.getByText("Enter a whole percentage from 1 to 100.").waitFor();
    await fitsThePhone(page, "the promo code form with an error");
    const code = `SPRING-${event.eventId}`.toUpperCase();
    await page.getByLabel("Code", { exact: true }).fill(code);
    await page.getByLabel("How much").fill("25");
    await page.getByLabel("Premium finish").check();
    await page.getByRole("button", { name: "Create code" }).click();
    await page.getByRole("heading", { name: "25 % off" }).waitFor();
    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByRole("button", { name: "Resume" }).waitFor();
    expect(await page.locator("main").textContent()).toContain("Code paused");
    await fitsThePhone(page, "a promo code");
    await page.goto("/admin/promo-codes");
    await fitsThePhone(page, "the promo code list");
    expect(await page.locator(".staff-table").textContent()).toContain(code);
    await page.context().close();
  });
});
