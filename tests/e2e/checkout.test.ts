import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { findEventById, insertRecipient } from "~/models/event.server";
import { insertPromoCode } from "~/models/promo-code.server";
import { createUser, PASSWORD, uniqueEmail } from "../support/accounts";
import { chromiumPath, collectPageErrors, gotoHydrated, logInBrowser, newPage, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";
import { expectBrowserConsoleError } from "../support/fail-on-browser-console-error";

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe.skipIf(!chromiumPath)("the cart page in Chromium", () => {
  const e2e = useServerAndBrowser({ JOB_POLL_SECONDS: "0.5" });

  test("without JavaScript at 375px: delivery is refused with a link to the cart, a 100 % code makes it free, confirm pays the Chorus", async () => {
    const user = await createUser();
    const event = await createTestEvent(user);
    await insertRecipient(db(), event.id, { firstName: "Bo", lastName: "", email: uniqueEmail("bo"), phone: null });
    const code = await insertPromoCode(db(), { code: `GIFT-${event.eventId}`, kind: "percent", value: 100 });
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    await logInBrowser(page, user.email, PASSWORD);

    await page.goto(`/e/${event.uuid}#deliver`);
    const deliver = page.locator("#deliver");
    await expect.poll(() => deliver.textContent()).toContain("come with paying for this Chorus");
    await deliver.getByRole("link", { name: "Go to checkout" }).click();
    await page.waitForURL(`**/e/${event.uuid}/checkout`);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await page.getByRole("button", { name: "Pay $5.00" }).count()).toBe(1);

    await page.getByLabel(/Premium finish/).check();
    await page.getByLabel("Billing country").selectOption("GB");
    await page.getByRole("button", { name: "Update the total" }).click();
    // $9.00 + 20 % VAT.
    await page.getByRole("button", { name: "Pay $10.80" }).waitFor();
    expect(await page.getByLabel(/Premium finish/).isChecked()).toBe(true);

    await page.getByLabel("Promo code").fill(code.code.toLowerCase());
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByRole("button", { name: "Confirm — no payment needed" }).waitFor();
    expect(await page.locator(".checkout-totals").textContent()).toContain("$0.00");
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, "checkout-phone-free");

    await page.getByRole("button", { name: "Confirm — no payment needed" }).click();
    await page.waitForURL(`**/e/${event.uuid}#deliver`);
    expect((await findEventById(db(), event.id))!.paid).toBe(true);
    expect(await page.locator("#deliver").getByRole("button", { name: "Send the private link" }).count()).toBe(1);
    await page.context().close();
  });

  test("with JavaScript: Pay opens the payment page; a paid Chorus comes back paid, without console errors", async () => {
    const user = await createUser();
    const event = await createTestEvent(user);
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const errors = collectPageErrors(page);
    await logInBrowser(page, user.email, PASSWORD);
    await gotoHydrated(page, `/e/${event.uuid}/checkout`);
    await page.getByRole("button", { name: "Pay $5.00" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/local-payments/checkout/"));
    const main = page.locator("main");
    await main.getByLabel("Card number").fill("4242 4242 4242 4242");
    await main.getByLabel("Expiry (MM / YY)").fill("12 / 40");
    await main.getByLabel("Security code").fill("123");
    await main.getByRole("button", { name: "Pay $5.00" }).click();
    await page.waitForURL((url) => url.pathname === "/checkout/complete");
    await page.getByRole("heading", { name: "Paid" }).waitFor({ timeout: 20_000 });
    await page.getByRole("link", { name: "Back to your Chorus" }).click();
    await page.waitForURL((url) => url.pathname === `/e/${event.uuid}`);
    await gotoHydrated(page, `/e/${event.uuid}/checkout`);
    await page.getByText("Paid — thank you").first().waitFor();
    expect(errors).toEqual([]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.context().close();
  });

  test("with JavaScript at 375px: the total and the Pay button follow the ticked boxes and the country at once, and Pay charges that", async () => {
    const user = await createUser();
    const event = await createTestEvent(user);
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const errors = collectPageErrors(page);
    await logInBrowser(page, user.email, PASSWORD);
    await gotoHydrated(page, `/e/${event.uuid}/checkout`);
    // The total follows by itself: no button to ask for it.
    await page.getByRole("button", { name: "Update the total" }).waitFor({ state: "detached" });

    await page.getByLabel(/Premium finish/).check();
    await page.getByRole("button", { name: "Pay $9.00" }).waitFor();
    await page.getByLabel("Billing country").selectOption("GB");
    // $9.00 + 20 % VAT.
    await page.getByRole("button", { name: "Pay $10.80" }).waitFor();
    const totals = (await page.locator(".checkout-totals").textContent()) ?? "";
    expect(totals).toContain("Premium finish");
    expect(totals).toContain("VAT 20 %");
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, "checkout-phone-live-total");

    await page.getByRole("button", { name: "Pay $10.80" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/local-payments/checkout/"));
    const main = page.locator("main");
    await main.getByRole("heading", { name: "Pay $10.80" }).waitFor();
    expect(await main.textContent()).toContain("Premium finish");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test("with JavaScript at 375px: a refused code stays in the field as typed, with why, and a code's discount shows on the payment page", async () => {
    const user = await createUser();
    const event = await createTestEvent(user);
    const code = await insertPromoCode(db(), { code: `TWO-${event.eventId}`, kind: "amount", value: 200, currency: "usd" });
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const errors = collectPageErrors(page);
    expectBrowserConsoleError(
      /the server responded with a status of 400/,
      "the refused code's answer is a 400, which Chromium logs as a failed load",
    );
    await logInBrowser(page, user.email, PASSWORD);
    await gotoHydrated(page, `/e/${event.uuid}/checkout`);
    await page.getByRole("button", { name: "Update the total" }).waitFor({ state: "detached" });

    const typo = `${code.code.slice(0, -1)}X`;
    await page.getByLabel("Promo code").fill(typo);
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("We don't know this code. Check it and try again.").waitFor();
    expect(await page.getByLabel("Promo code").inputValue()).toBe(typo);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);

    await page.getByLabel("Promo code").fill(code.code);
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByRole("button", { name: "Pay $3.00" }).waitFor();
    await page.getByRole("button", { name: "Pay $3.00" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/local-payments/checkout/"));
    const lines = page.locator(".local-checkout__lines");
    await lines.waitFor();
    const text = (await lines.textContent()) ?? "";
    expect(text).toContain("Your Chorus$5.00");
    expect(text).toContain(`${code.code} ($2.00 off)−$2.00`);
    expect(text).toContain("Total$3.00");
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, "local-checkout-phone-discount");
    // The refused code's answer is a 400, which Chromium logs as a failed load: nothing else.
    expect(errors.filter((error) => !error.includes("the server responded with a status of 400"))).toEqual([]);
    await page.context().close();
  });
});
