import crypto from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { paymentsProvider } from "~/services/payments/provider.server";
import { createUser, PASSWORD } from "../support/accounts";
import { chromiumPath, collectPageErrors, logInBrowser, newPage, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { expectBrowserConsoleError } from "../support/fail-on-browser-console-error";

// The local payment service's checkout page as a payer meets it with no Stripe keys: on a phone,
// with and without JavaScript, from the card form to the return page saying paid. The payer is
// signed in, as an organiser paying for their cart is: the return page is theirs alone.

describe.skipIf(!chromiumPath)("the local checkout page in Chromium", () => {
  const e2e = useServerAndBrowser({ JOB_POLL_SECONDS: "0.5" });

  /** A cart's payment page, and a phone signed in as the cart's owner. */
  async function newSession(page: Page) {
    const payer = await createUser();
    await logInBrowser(page, payer.email, PASSWORD);
    const eventUuid = crypto.randomUUID();
    const ref = await paymentsProvider().createPaymentCheckout({
      customerEmail: payer.email,
      clientReferenceId: "cart-e2e",
      metadata: { kind: "cart", eventUuid, userId: payer.id },
      successUrl: `${e2e.server.url}/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${e2e.server.url}/dashboard`,
      idempotencyKey: crypto.randomUUID(),
      lines: [
        {
          name: "A printed copy of the video with a very long name that has to wrap on a phone",
          unitAmount: 2450,
          currency: "usd",
          quantity: 1,
        },
      ],
    });
    return { path: new URL(ref.url).pathname, eventUuid };
  }

  async function fitsThePhone(page: Page, name: string) {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${name} is ${width}px wide`).toBeLessThanOrEqual(PHONE.width);
  }

  async function fillCard(page: Page, number: string) {
    const main = page.locator("main");
    await main.getByLabel("Card number").fill(number);
    await main.getByLabel("Expiry (MM / YY)").fill("12 / 40");
    await main.getByLabel("Security code").fill("123");
    await main.getByRole("button", { name: "Pay $24.50" }).click();
  }

  test("without JavaScript at 375 px: a declined card says so, 4242 pays, and the return page refreshes itself to Paid", async () => {
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    const { path, eventUuid } = await newSession(page);
    await page.goto(path);
    await page.getByRole("heading", { name: "Pay $24.50" }).waitFor();
    await fitsThePhone(page, "the checkout page");
    expect(await page.getByRole("link", { name: "Cancel and go back" }).getAttribute("href")).toBe(`${e2e.server.url}/dashboard`);

    expectBrowserConsoleError(
      /status of 402 \(Payment Required\) \(http:\/\/[^/]+\/local-payments\/checkout\//,
      "the local payment page answers a declined card with 402 Payment Required, which Chromium logs as a failed load",
    );
    await fillCard(page, "4000 0000 0000 0002");
    await page.getByText("Your card was declined.").waitFor();
    await fitsThePhone(page, "the declined card");

    await fillCard(page, "4242 4242 4242 4242");
    await page.waitForURL((url) => url.pathname === "/checkout/complete");
    await page.getByRole("heading", { name: "Paid" }).waitFor({ timeout: 20_000 });
    await fitsThePhone(page, "the return page");
    expect(await page.getByRole("link", { name: "Back to your Chorus" }).getAttribute("href")).toBe(`/e/${eventUuid}`);
    await page.context().close();
  });

  test("with JavaScript: paying lands on the return page, which turns to Paid by itself", async () => {
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const errors = collectPageErrors(page);
    const { path } = await newSession(page);
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await saveScreenshot(page, "local-checkout-phone");
    await fillCard(page, "4242 4242 4242 4242");
    await page.waitForURL((url) => url.pathname === "/checkout/complete");
    await page.getByRole("heading", { name: "Paid" }).waitFor({ timeout: 20_000 });
    await saveScreenshot(page, "checkout-complete-phone");
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
