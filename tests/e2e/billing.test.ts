import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { findUserById } from "~/models/user.server";
import { createUser, PASSWORD } from "../support/accounts";
import { chromiumPath, collectPageErrors, gotoHydrated, logInBrowser, newPage, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** Pays the local payment page in front of `page` with the test card that pays. */
async function payWithTestCard(page: Page) {
  await page.waitForURL((url) => url.pathname.startsWith("/local-payments/checkout/"));
  const main = page.locator("main");
  await main.getByLabel("Card number").fill("4242 4242 4242 4242");
  await main.getByLabel("Expiry (MM / YY)").fill("12 / 40");
  await main.getByLabel("Security code").fill("123");
  await main.getByRole("button", { name: /^Pay / }).click();
  await page.waitForURL((url) => url.pathname === "/checkout/complete");
  // Without JavaScript the page refreshes itself until the webhook has made the account a member.
  await page.getByRole("heading", { name: "Paid" }).waitFor({ timeout: 20_000 });
}

describe.skipIf(!chromiumPath)("the billing page in Chromium", () => {
  const e2e = useServerAndBrowser({ JOB_POLL_SECONDS: "0.5" });

  test("without JavaScript at 375px: join a plan, pay, come back a member, open the membership's receipt, cancel after confirming and keep it", async () => {
    const user = await createUser();
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    await logInBrowser(page, user.email, PASSWORD);

    await page.goto("/settings/billing");
    await page.getByText("No invoices yet").waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, "billing-phone-plans");
    await page.getByRole("button", { name: "Join for $9.99 a month" }).click();
    await payWithTestCard(page);
    await page.getByRole("link", { name: "See your membership" }).click();
    await page.waitForURL((url) => url.pathname === "/settings/billing");

    await page.getByRole("heading", { name: "You're a VIP member" }).waitFor();
    expect(await page.getByText("Renews on").count()).toBe(1);
    expect(await page.getByRole("button", { name: "Manage payment details" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: /^Join for/ }).count()).toBe(0);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect((await findUserById(db(), user.id))!.membershipPlan).toBe("vip-monthly");

    // The membership's invoice arrives with its own webhook: reload until it is listed.
    const invoiceLink = page.locator(".invoice-list a").first();
    await expect
      .poll(
        async () => {
          if ((await invoiceLink.count()) > 0) return true;
          await page.reload();
          return false;
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    expect(await page.locator(".invoice-list").textContent()).toContain("VIP membership, monthly");
    await saveScreenshot(page, "billing-phone-member");
    await invoiceLink.click();
    await page.waitForURL((url) => url.pathname.startsWith("/settings/billing/invoices/"));
    await page.getByRole("heading", { name: /^Receipt CH-\d{6}$/ }).waitFor();
    expect(await page.locator(".receipt").textContent()).toContain(user.email);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);

    // On paper: the receipt alone, black on white.
    await page.emulateMedia({ media: "print" });
    expect(await page.locator(".site-header").isVisible()).toBe(false);
    expect(await page.locator(".site-footer").isVisible()).toBe(false);
    expect(await page.locator(".receipt").isVisible()).toBe(true);
    const colours = await page.locator(".receipt").evaluate((el) => {
      const style = getComputedStyle(el);
      return { color: style.color, background: style.backgroundColor };
    });
    expect(colours).toEqual({ color: "rgb(0, 0, 0)", background: "rgb(255, 255, 255)" });
    await page.emulateMedia({ media: "screen" });

    // Cancelling asks first, on a page of its own; then the membership ends with its period, and can be kept until then.
    await page.goto("/settings/billing");
    await page.getByRole("link", { name: "Cancel membership" }).click();
    await page.getByRole("heading", { name: "Cancel your membership?" }).waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, "billing-phone-cancel");
    await page.getByRole("button", { name: "Cancel membership" }).click();
    await page.waitForURL((url) => url.pathname === "/settings/billing");
    await page.getByText("Ends on", { exact: true }).waitFor();
    expect(await page.getByText("Renews on", { exact: true }).count()).toBe(0);
    expect((await findUserById(db(), user.id))!.subscriptionId).not.toBeNull();
    await page.getByRole("button", { name: "Keep my membership" }).click();
    await page.getByText("Renews on", { exact: true }).waitFor();
    expect((await findUserById(db(), user.id))!.membershipEndsAt).toBeNull();
    await page.context().close();
  });

  test("with JavaScript: join the yearly plan, come back a member, and reach the billing portal's cancellation step, without console errors", async () => {
    const user = await createUser();
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const errors = collectPageErrors(page);
    await logInBrowser(page, user.email, PASSWORD);
    await gotoHydrated(page, "/settings/billing");
    await page.getByRole("button", { name: "Join for $99.90 a year" }).click();
    await payWithTestCard(page);
    await page.getByRole("link", { name: "See your membership" }).click();
    await page.waitForURL((url) => url.pathname === "/settings/billing");
    await page.getByRole("heading", { name: "You're a VIP member" }).waitFor();
    expect(await page.getByText("VIP membership, yearly · $99.90 a year").count()).toBe(1);
    // The shell's VIP card is for non-members only.
    expect(await page.locator(".vip-card").count()).toBe(0);

    await page.getByRole("button", { name: "Manage payment details" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/local-payments/portal/"));
    await page.getByRole("link", { name: "Cancel membership" }).click();
    await page.getByRole("heading", { name: "Cancel your membership?" }).waitFor();
    expect(errors).toEqual([]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.context().close();
  });
});
