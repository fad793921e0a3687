import crypto from "node:crypto";
import { mailOrders, postcards } from "drizzle/schema";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { publishVersion } from "~/models/published-media.server";
import { createUser, PASSWORD } from "../support/accounts";
import { chromiumPath, collectPageErrors, gotoHydrated, logInBrowser, newPage, PHONE } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";
import { expectBrowserConsoleError } from "../support/fail-on-browser-console-error";
import { until } from "../support/wait";

// Printed postcards and posted keepsakes on a phone (375 × 812): designing a card, seeing its
// preview, paying on the payment page and seeing it sent; ordering a photo book by post. Each page
// fits the width, every control is labelled and on screen, and each form works without JavaScript.

describe.skipIf(!chromiumPath)("postcards and keepsakes by post on a phone, in Chromium", () => {
  const e2e = useServerAndBrowser({ JOB_POLL_SECONDS: "0.5" });

  /** An organiser's published Chorus, and a phone logged in as them, with or without JavaScript. */
  async function organiserOnPhone(javaScriptEnabled: boolean) {
    const user = await createUser();
    const event = await createTestEvent(user, { title: "Ana turns 40" });
    await publishVersion(db(), {
      eventId: event.id,
      renderJobId: null,
      videoKey: `missing/${crypto.randomUUID()}.mp4`,
      posterKey: null,
      durationSeconds: 10,
      width: 1280,
      height: 720,
      sizeBytes: 1000,
      publishedById: user.id,
    });
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled });
    await logInBrowser(page, user.email, PASSWORD);
    return { event, page };
  }

  /**
   * No sideways scrolling, and every control of the page's main part named for a screen reader
   * and within the screen's width (reachable without scrolling sideways).
   */
  async function fitsAndLabelled(page: Page, name: string) {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${name} is ${width}px wide`).toBeLessThanOrEqual(PHONE.width);
    const problems = await page.evaluate((screenWidth) => {
      const found: string[] = [];
      const controls = document.querySelectorAll<HTMLElement>(
        "main input:not([type=hidden]), main select, main textarea, main button, main a[href], main summary",
      );
      for (const control of controls) {
        const box = control.getBoundingClientRect();
        const input = control as HTMLInputElement;
        const named =
          (input.labels && input.labels.length > 0) ||
          control.getAttribute("aria-label") ||
          control.getAttribute("aria-labelledby") ||
          (["BUTTON", "A", "SUMMARY"].includes(control.tagName) && (control.textContent ?? "").trim());
        const label = control.outerHTML.slice(0, 80);
        if (!named) found.push(`unlabelled: ${label}`);
        if (box.width > 0 && (box.left < 0 || box.right > screenWidth + 0.5)) found.push(`off screen (${box.left}–${box.right}): ${label}`);
      }
      return found;
    }, PHONE.width);
    expect(problems, name).toEqual([]);
  }

  async function payWithTestCard(page: Page, amount: string) {
    await page.waitForURL((url) => url.pathname.startsWith("/local-payments/checkout/"));
    await fitsAndLabelled(page, "the payment page");
    const main = page.locator("main");
    await main.getByLabel("Card number").fill("4242 4242 4242 4242");
    await main.getByLabel("Expiry (MM / YY)").fill("12 / 40");
    await main.getByLabel("Security code").fill("123");
    await main.getByRole("button", { name: `Pay ${amount}` }).click();
  }

  async function fillCardAddress(page: Page, postalCode: string) {
    const main = page.locator("main");
    await main.getByLabel("Who it goes to").fill("Ada Lovelace");
    await main.getByLabel("Street address").fill("350 Fifth Avenue");
    await main.getByLabel("Town or city").fill("New York");
    await main.getByLabel("State, province or county").fill("NY");
    await main.getByLabel("Postal code").fill(postalCode);
    await main.getByLabel("Country").selectOption("US");
  }

  test("with JavaScript: a card designed, previewed, paid and sent; a photo book ordered and paid", async () => {
    const { event, page } = await organiserOnPhone(true);
    const errors = collectPageErrors(page);
    await gotoHydrated(page, `/e/${event.uuid}/postcards`);
    await fitsAndLabelled(page, "the postcards page");
    const main = page.locator("main");
    await main.getByRole("button", { name: "Design a postcard" }).click();
    await page.waitForURL((url) => /\/postcards\/[0-9a-f-]{36}$/.test(url.pathname));
    await page.waitForLoadState("networkidle");
    await main.getByLabel("Message").fill("Happy birthday, Ana!");
    await fillCardAddress(page, "10118");
    await main.getByRole("button", { name: "Save and preview" }).click();
    await page.getByText("Saved. The preview shows your changes.").waitFor();
    // The preview is the card itself, drawn as images that fit the screen.
    for (const side of ["front", "back"]) {
      const image = main.getByAltText(`The ${side} of the card, as it will be printed`);
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      expect((await image.boundingBox())!.width).toBeLessThanOrEqual(PHONE.width);
    }
    await fitsAndLabelled(page, "the design page");

    await main.getByRole("button", { name: "Pay $4.99 and post it" }).click();
    await payWithTestCard(page, "$4.99");
    await page.waitForURL((url) => url.pathname === "/checkout/complete");
    const cardId = (await db().select().from(postcards).where(eq(postcards.eventId, event.id)))[0]!.id;
    await until(async () => (await db().select().from(postcards).where(eq(postcards.id, cardId)))[0]?.status === "sent", {
      timeout: 20_000,
      what: "the postcard to be sent",
    });
    await gotoHydrated(page, `/e/${event.uuid}/postcards/${cardId}`);
    await main.getByRole("status").filter({ hasText: "With the print service" }).waitFor();
    await fitsAndLabelled(page, "the sent card's page");

    await gotoHydrated(page, `/e/${event.uuid}/post`);
    await fitsAndLabelled(page, "the post-order page");
    await main.getByRole("radio", { name: /Printed photo book/ }).check();
    await main.getByLabel("Copies").fill("1");
    await main.getByLabel("Who it goes to").fill("Ana Silva");
    await main.getByLabel("Street address").fill("1 Main St");
    await main.getByLabel("Town or city").fill("Springfield");
    await main.getByLabel("State, province or county").fill("IL");
    await main.getByLabel("Postal code").fill("62701");
    await main.getByLabel("Country").selectOption("US");
    await main.getByRole("button", { name: "Order and pay" }).click();
    await payWithTestCard(page, "$43.99");
    await page.waitForURL((url) => url.pathname === `/e/${event.uuid}/post`);
    await until(
      async () => (await db().select().from(mailOrders).where(eq(mailOrders.eventId, event.id)))[0]?.status !== "awaiting_payment",
      {
        timeout: 20_000,
        what: "the photo book to be paid",
      },
    );
    await page.reload();
    await main.getByRole("heading", { name: "Your orders" }).waitFor();
    expect(await main.getByText("1 × Printed photo book").count()).toBe(1);
    await fitsAndLabelled(page, "the post-order page with its order");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test("without JavaScript: each form refuses what is wrong, in words, and takes the fixed one to the payment page", async () => {
    const { event, page } = await organiserOnPhone(false);
    // Without JavaScript a refused form comes back as its page with a 400, which the browser notes.
    expectBrowserConsoleError(
      /status of 400 .*\/e\/[0-9a-f-]{36}\/(postcards\/[0-9a-f-]{36}|post)\)$/,
      "the test sends each form wrong first, to see it refused in words",
    );
    const main = page.locator("main");
    await page.goto(`/e/${event.uuid}/postcards`);
    await main.getByRole("button", { name: "Design a postcard" }).click();
    await page.waitForURL((url) => /\/postcards\/[0-9a-f-]{36}$/.test(url.pathname));
    await fillCardAddress(page, "1011");
    await main.getByRole("button", { name: "Save and preview" }).click();
    await main.getByLabel("Postal code").and(page.locator("[aria-invalid=true]")).waitFor();
    await fitsAndLabelled(page, "the refused design");
    await main.getByLabel("Postal code").fill("10118");
    await main.getByRole("button", { name: "Save and preview" }).click();
    await page.getByText("Saved. The preview shows your changes.").waitFor();
    await main.getByRole("button", { name: "Pay $4.99 and post it" }).click();
    await payWithTestCard(page, "$4.99");
    await page.waitForURL((url) => url.pathname === "/checkout/complete");

    await page.goto(`/e/${event.uuid}/post`);
    await main.getByRole("radio", { name: /Printed photo book/ }).check();
    await main.getByLabel("Copies").fill("12");
    await main.getByLabel("Who it goes to").fill("Ana Silva");
    await main.getByLabel("Street address").fill("1 Main St");
    await main.getByLabel("Town or city").fill("Springfield");
    await main.getByLabel("State, province or county").fill("IL");
    await main.getByLabel("Postal code").fill("62701");
    await main.getByRole("button", { name: "Order and pay" }).click();
    await page.getByText("Choose 1 to 10 copies.").waitFor();
    await fitsAndLabelled(page, "the refused order");
    await main.getByLabel("Copies").fill("2");
    await main.getByRole("button", { name: "Order and pay" }).click();
    await payWithTestCard(page, "$83.99");
    await page.waitForURL((url) => url.pathname === `/e/${event.uuid}/post`);
    await page.context().close();
  });
});
