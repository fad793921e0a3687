import { treeContributions } from "drizzle/schema";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { createUser } from "../support/accounts";
import { chromiumPath, collectPageErrors, gotoHydrated, newPage, PHONE } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";
import { expectBrowserConsoleError } from "../support/fail-on-browser-console-error";
import { TestClient } from "../support/http-client";
import { until } from "../support/wait";

// Trees in the recipient's honour on a phone: the planting form and its certificate without
// JavaScript, and the count growing live on an open Chorus page when someone else's trees are paid.

describe.skipIf(!chromiumPath)("trees on a phone, in Chromium", () => {
  const e2e = useServerAndBrowser({ JOB_POLL_SECONDS: "0.5" });

  async function fitsThePhone(page: Page, name: string) {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${name} is ${width}px wide`).toBeLessThanOrEqual(PHONE.width);
  }

  async function chorus() {
    return createTestEvent(await createUser());
  }

  test("without JavaScript at 375 px: the form refuses 0 trees, pays for 2, and the page becomes their certificate", async () => {
    const event = await chorus();
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    await page.goto(`/e/${event.uuid}/trees`);
    await fitsThePhone(page, "the trees form");
    // Without the page's script the price of one tree is said, and how the total comes from it.
    expect(await page.locator("main").textContent()).toContain("$2.50 a tree, so your total is $2.50 × the number of trees");

    const main = page.locator("main");
    await main.getByLabel("Your name").fill("Bea");
    await main.getByLabel("Your e-mail, for the receipt").fill("bea@example.test");
    await main.getByLabel("How many trees").fill("0");
    expectBrowserConsoleError(
      /status of 400 \(Bad Request\) \(http:\/\/[^/]+\/e\/[0-9a-f-]{36}\/trees\)$/,
      "0 trees is posted on purpose, and the form answers it 400 with why",
    );
    await main.getByRole("button", { name: "Plant and pay" }).click();
    await page.getByText("Plant at least 1 tree.").waitFor();
    await fitsThePhone(page, "the refused form");
    // After a plain post, the total is worked out for the count sent.
    await main.getByLabel("How many trees").fill("2");
    await main.getByLabel("Your e-mail, for the receipt").fill("not an address");
    await main.getByRole("button", { name: "Plant and pay" }).click();
    await page.getByText("2 trees × $2.50 = $5.00").waitFor();
    await main.getByLabel("Your e-mail, for the receipt").fill("bea@example.test");

    await main.getByLabel("How many trees").fill("2");
    await main.getByRole("button", { name: "Plant and pay" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/local-payments/checkout/"));
    await main.getByLabel("Card number").fill("4242 4242 4242 4242");
    await main.getByLabel("Expiry (MM / YY)").fill("12 / 40");
    await main.getByLabel("Security code").fill("123");
    await main.getByRole("button", { name: "Pay $5.00" }).click();
    await page.waitForURL((url) => url.pathname === "/checkout/complete");
    await until(
      async () => (await db().select().from(treeContributions).where(eq(treeContributions.eventId, event.id)))[0]?.status === "planted",
      { timeout: 20_000, what: "the trees to be planted" },
    );

    await page.goto(`/e/${event.uuid}/trees?privateKey=${event.privateKey}`);
    await page.getByRole("heading", { name: "2 trees planted in honour of" }).waitFor();
    await fitsThePhone(page, "the certificate");
    expect(await main.getByRole("button", { name: "Plant and pay" }).count()).toBe(0);
    await page.context().close();
  });

  test("with JavaScript: an open Chorus page counts trees someone else pays for, without a reload", async () => {
    const event = await chorus();
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const errors = collectPageErrors(page);
    await gotoHydrated(page, `/e/${event.uuid}`);
    const count = page.locator("[data-tree-count]");
    expect(await count.getAttribute("data-tree-count")).toBe("0");
    await fitsThePhone(page, "the Chorus page");

    const payer = new TestClient(e2e.server.url);
    const started = await payer.post("/api/v2/tree/contributions", {
      eventUuid: event.uuid,
      name: "Cy",
      email: "cy@example.test",
      quantity: 4,
    });
    const paid = await payer.form(new URL(started.body.data.url).pathname, {
      cardNumber: "4242 4242 4242 4242",
      expiry: "12 / 40",
      cvc: "123",
    });
    expect(paid.status).toBe(302);

    await page.locator('[data-tree-count="4"]').waitFor({ timeout: 20_000 });
    expect(await count.textContent()).toContain("4 trees");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test("with JavaScript at 375 px: the total follows the number of trees as it is typed, before leaving the site", async () => {
    const event = await chorus();
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const errors = collectPageErrors(page);
    await gotoHydrated(page, `/e/${event.uuid}/trees`);
    const total = page.locator("output.trees-total, .trees-total output");
    await expect.poll(() => total.textContent()).toBe("1 tree × $2.50 = $2.50");
    await page.locator("main").getByLabel("How many trees").fill("3");
    await expect.poll(() => total.textContent()).toBe("3 trees × $2.50 = $7.50");
    await page.locator("main").getByLabel("How many trees").fill("");
    await expect.poll(() => total.textContent()).toBe("Choose from 1 to 100 trees to see your total.");
    await page.locator("main").getByLabel("How many trees").fill("12");
    await expect.poll(() => total.textContent()).toBe("12 trees × $2.50 = $30.00");
    await fitsThePhone(page, "the trees form with its total");
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
