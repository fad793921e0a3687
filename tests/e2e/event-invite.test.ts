import { events } from "drizzle/schema";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import type { RunningServer } from "../../server";
import { createUser, lastMailTo, PASSWORD, uniqueEmail } from "../support/accounts";
import {
  chromiumPath,
  collectPageErrors,
  gotoHydrated,
  launchChromium,
  logInBrowser,
  newPage,
  PHONE,
  saveScreenshot,
} from "../support/browser";
import { expectBrowserConsoleError } from "../support/fail-on-browser-console-error";
import { startTestServer } from "../support/test-server";

const daysAhead = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

/** The path and query of the first link in a message that contains `fragment`. */
function pathIn(text: string, fragment: string) {
  const url = text.match(/https?:\/\/\S+/g)?.find((u) => u.includes(fragment));
  if (!url) throw new Error(`no link with ${fragment} in:\n${text}`);
  return new URL(url).pathname + new URL(url).search;
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe.skipIf(!chromiumPath)("starting a Chorus and inviting people in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ JOB_POLL_SECONDS: "0.5" }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The four steps of /start-a-chorus, each a plain form post. */
  async function startChorus(page: Page) {
    const next = page.locator(".start-actions button[value=next]");
    await page.goto("/start-a-chorus");
    await page.locator('input[name="occasion"][value="birthday"]').check();
    await next.click();
    await page.getByLabel("First name").fill("Ana");
    await page.getByRole("button", { name: /add another/i }).click();
    await page.getByLabel("First name (person 2)").fill("Bo");
    await next.click();
    await page.getByLabel("Deadline").fill(daysAhead(12));
    await page.getByLabel("Time", { exact: true }).fill("18:00");
    await page.getByLabel("Message to contributors").fill("We're making Ana and Bo a birthday video!");
    await page.getByLabel("Question 1").fill("What's your favourite memory with them?");
    await next.click();
    await page.getByRole("button", { name: "Start my Chorus" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/e/"));
  }

  async function invite(page: Page, name: string, email: string) {
    const form = page.locator("#invite");
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByLabel("E-mail", { exact: true }).fill(email);
    expect(await form.getByLabel("Send the invitation now").isChecked()).toBe(true);
    await form.getByRole("button", { name: "Add to the list" }).click();
    await form.getByText(`${name} is on the list, and their invitation is on its way.`).waitFor();
  }

  test("an organiser starts a Chorus and invites two people with JavaScript off; an invitee opens their link on a phone", async () => {
    const organiser = await createUser();
    const page = await newPage(browser, server.url, { javaScriptEnabled: false });
    await logInBrowser(page, organiser.email, PASSWORD);

    await startChorus(page);
    await page.getByRole("heading", { level: 1, name: "Ana and Bo's birthday" }).waitFor();
    expect(await page.locator(".event-facts").innerText()).toContain("Collecting");

    const dee = uniqueEmail("dee");
    await invite(page, "Dee", dee);
    await invite(page, "Eli", uniqueEmail("eli"));
    const table = page.locator("#invitees table");
    expect(await table.locator("tbody th").allInnerTexts()).toEqual(["Dee", "Eli"]);

    await page.setViewportSize(PHONE);
    await page.goto(page.url().split("#")[0]!);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, "event-creator-375");

    await expect.poll(() => lastMailTo(dee), { timeout: 15_000 }).toBeTruthy();
    const personal = pathIn((await lastMailTo(dee))!.text, "invite=");

    const phone = await newPage(browser, server.url, { viewport: PHONE });
    const errors = collectPageErrors(phone);
    const response = await gotoHydrated(phone, personal);
    expect(response?.status()).toBe(200);
    await phone.getByText("Hi Dee, you're invited!").waitFor();
    await phone.getByRole("heading", { level: 1, name: "Ana and Bo's birthday" }).waitFor();
    expect(await phone.locator(".event-prompts li").allInnerTexts()).toEqual(["What's your favourite memory with them?"]);
    expect(await phone.getByText(/^Add yours by \w+day \d+ \w+$/).isVisible()).toBe(true);
    expect(await pageWidth(phone)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(phone, "event-contributor-375");
    expect(errors).toEqual([]);

    // On a phone the list is folded under its summary; without JavaScript a tap opens it.
    await page.reload();
    await page.locator("#invitees > summary").click();
    expect(await page.locator("#invitees tr", { hasText: /\bDee\b/ }).innerText()).toContain("Opened");

    await page.context().close();
    await phone.context().close();
  });

  test("with JavaScript the organiser copies a link, and the recipient's page tells them it was opened", async () => {
    const organiser = await createUser();
    const setup = await newPage(browser, server.url, { javaScriptEnabled: false });
    await logInBrowser(setup, organiser.email, PASSWORD);
    await startChorus(setup);
    const uuid = new URL(setup.url()).pathname.split("/")[2]!;
    await setup.context().close();

    const desk = await newPage(browser, server.url);
    await desk.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    const deskErrors = collectPageErrors(desk);
    await logInBrowser(desk, organiser.email, PASSWORD);
    await gotoHydrated(desk, `/e/${uuid}`);
    const recipientLink = await desk.getByLabel("Recipient's private link").inputValue();
    const group = desk.locator(".event-link-group", { has: desk.getByLabel("Recipient's private link") });
    await group.getByRole("button", { name: "Copy" }).click();
    await group.getByRole("button", { name: "Copied!" }).waitFor();
    expect(await desk.evaluate(() => navigator.clipboard.readText())).toBe(recipientLink);

    // The same forms, enhanced: a mistake is shown in place and keeps what was typed; a success clears the form.
    const form = desk.locator("#invite");
    await form.getByLabel("Name", { exact: true }).fill("Fay");
    expectBrowserConsoleError(
      /status of 400 .*\?_data=routes%2Fe\.%24uuid/,
      "a mistyped address is submitted on purpose, and the enhanced form's answer is a 400",
    );
    await form.getByLabel("E-mail", { exact: true }).fill("fay-at-example");
    await form.getByRole("button", { name: "Add to the list" }).click();
    await form.getByText("Enter a valid e-mail address.").waitFor();
    expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe("Fay");
    await form.getByLabel("E-mail", { exact: true }).fill(uniqueEmail("fay"));
    await form.getByRole("button", { name: "Add to the list" }).click();
    await form.getByText("Fay is on the list, and their invitation is on its way.").waitFor();
    expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe("");
    await expect.poll(() => desk.locator("#invitees tbody th").allInnerTexts()).toEqual(["Fay"]);
    // Chromium logs the refused submit (a 400 answer, by design) as a failed resource; nothing else may fail.
    expect(deskErrors.filter((e) => !/status of 400 .*\?_data=routes%2Fe\.%24uuid/.test(e))).toEqual([]);
    await desk.context().close();

    const phone = await newPage(browser, server.url, { viewport: PHONE });
    const errors = collectPageErrors(phone);
    await gotoHydrated(phone, new URL(recipientLink).pathname + new URL(recipientLink).search);
    await phone.getByRole("heading", { name: "Your video is being prepared" }).waitFor();
    await expect
      .poll(async () => (await db().select().from(events).where(eq(events.uuid, uuid)))[0]!.openedAt, { timeout: 5_000 })
      .toBeInstanceOf(Date);
    expect(await pageWidth(phone)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(phone, "event-recipient-375");
    expect(errors).toEqual([]);
    await phone.context().close();
  });
});
