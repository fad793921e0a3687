import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { realtime } from "~/realtime/server.server";
import { createUser, loggedInUser, PASSWORD } from "../support/accounts";
import { chromiumPath, collectPageErrors, gotoHydrated, logInBrowser, newPage, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";
import { expectBrowserConsoleError } from "../support/fail-on-browser-console-error";

const fitsThePhone = async (page: Page, name: string) => {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${name} is ${width}px wide`).toBeLessThanOrEqual(PHONE.width);
};

describe.skipIf(!chromiumPath)("the staff console in Chromium", () => {
  const e2e = useServerAndBrowser({ JOB_POLL_SECONDS: "0.5" });

  test("a report made elsewhere appears on the open queue at once, without a reload", async () => {
    const editor = await createUser({ role: "editor" });
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const errors = collectPageErrors(page);
    await logInBrowser(page, editor.email, PASSWORD);
    await gotoHydrated(page, "/admin/reports");
    // The page's socket is in the /staff namespace: what is reported next reaches it.
    await expect.poll(async () => (await realtime()!.of("/staff").fetchSockets()).length, { timeout: 10_000 }).toBeGreaterThan(0);

    const organiser = await loggedInUser(e2e.server.url);
    const event = await createTestEvent(organiser.user, { title: "Live report party" });
    const reporter = await loggedInUser(e2e.server.url);
    expect((await reporter.client.post(`/api/v2/events/${event.id}/report`, { reason: "Seen live" })).status).toBe(200);

    await page.getByRole("heading", { name: /Live report party/ }).waitFor({ timeout: 10_000 });
    expect(await page.locator("main").textContent()).toContain("Seen live");
    await fitsThePhone(page, "the reports queue");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test("without JavaScript at 375 px: take a reported Chorus down, see it unavailable, restore it; announce; read the audit log", async () => {
    const organiser = await loggedInUser(e2e.server.url);
    const event = await createTestEvent(organiser.user, { title: "Phone moderation party" });
    const reporter = await loggedInUser(e2e.server.url);
    expect((await reporter.client.post(`/api/v2/events/${event.id}/report`, { reason: "Rude words" })).status).toBe(200);
    const admin = await createUser({ role: "admin" });
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    await logInBrowser(page, admin.email, PASSWORD);

    await page.goto("/admin");
    await page.getByRole("navigation", { name: "Staff pages" }).getByRole("link", { name: "Reports" }).click();
    await page.waitForURL("**/admin/reports");
    const card = page.locator("article.report", { hasText: "Phone moderation party" });
    await card.getByText("Rude words").waitFor();
    await fitsThePhone(page, "the reports queue");
    await saveScreenshot(page, "admin-reports-phone");

    expectBrowserConsoleError(
      /status of 400 \(Bad Request\) \(http:\/\/[^/]+\/admin\/reports\)$/,
      "Take down is pressed once without a reason on purpose, and the page answers it 400 asking for one",
    );
    expectBrowserConsoleError(
      /status of 410 \(Gone\) \(http:\/\/[^/]+\/e\/[0-9a-f-]{36}\)$/,
      "a Chorus taken down answers 410 to a visitor, by design",
    );
    await card.getByRole("button", { name: "Take down" }).click();
    await page.getByText("Say why, for its organiser.").waitFor();
    await page.locator("article.report", { hasText: "Phone moderation party" }).getByLabel(/Why/).fill("Rude words about the recipient.");
    await page.locator("article.report", { hasText: "Phone moderation party" }).getByRole("button", { name: "Take down" }).click();
    await page.waitForURL("**/admin/reports");
    const row = page.locator(".staff-table tr", { hasText: "Phone moderation party" });
    await row.getByText("Rude words about the recipient.").waitFor();
    await fitsThePhone(page, "the taken-down list");

    const visitor = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    await visitor.goto(`/e/${event.uuid}`);
    await visitor.getByRole("heading", { name: "This Chorus is unavailable" }).waitFor();
    await fitsThePhone(visitor, "an unavailable Chorus");

    await row.getByRole("button", { name: "Restore" }).click();
    await page.waitForURL("**/admin/reports");
    await page.getByText("Nothing is taken down.").waitFor();
    await visitor.reload();
    expect(await visitor.locator("main").textContent()).not.toContain("unavailable");
    await visitor.context().close();

    // Without JavaScript the last toast stays over the header: the next page is opened by its address.
    await page.goto("/admin/announcements");
    await page.getByLabel("Message").fill("Spring sale: 20% off premium");
    await page.getByLabel("Kind").selectOption("promotion");
    await page.getByRole("button", { name: "Preview" }).click();
    await page.getByText("As it will look:").waitFor();
    await fitsThePhone(page, "an announcement preview");
    await page.getByRole("button", { name: "Create" }).click();
    await page.waitForURL("**/admin/announcements");
    await page.locator(".staff-table").getByText("Spring sale: 20% off premium").waitFor();
    await fitsThePhone(page, "the announcements list");
    await saveScreenshot(page, "admin-announcements-phone");
    await page.getByRole("button", { name: "End now" }).first().click();
    await page.waitForURL("**/admin/announcements");

    await page.goto("/admin/audit");
    const log = await page.locator(".staff-table").textContent();
    for (const what of ["Chorus taken down", "Chorus restored", "Announcement created", "Announcement ended"]) expect(log).toContain(what);
    await page.getByLabel("Kind").selectOption("event_taken_down");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL((url) => url.searchParams.get("kind") === "event_taken_down");
    expect(await page.locator(".staff-table").textContent()).not.toContain("Announcement created");
    await fitsThePhone(page, "the audit log");
    await saveScreenshot(page, "admin-audit-phone");
    await page.context().close();
  });
  test("without JavaScript at 375 px: find a person, disable and enable their account; find a Chorus; read the queues' health", async () => {
    const person = await createUser();
    const organiser = await loggedInUser(e2e.server.url);
    await createTestEvent(organiser.user, { title: "Phone lookup party" });
    const admin = await createUser({ role: "admin" });
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    await logInBrowser(page, admin.email, PASSWORD);

    await page.goto("/admin/people");
    await page.getByLabel("E-mail or name").fill(person.email);
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === person.email);
    await fitsThePhone(page, "the people search");
    await page.getByRole("link", { name: person.email }).click();
    await page.waitForURL(`**/admin/people/${person.id}`);
    await page.getByRole("button", { name: "Disable the account" }).click();
    await page.getByRole("button", { name: "Enable the account" }).waitFor();
    await fitsThePhone(page, "a person's page");
    await saveScreenshot(page, "admin-person-phone");
    await page.getByRole("button", { name: "Enable the account" }).click();
    await page.getByRole("button", { name: "Disable the account" }).waitFor();

    await page.goto("/admin/choruses?q=Phone+lookup+party");
    await page.locator(".staff-table").getByText("Phone lookup party").waitFor();
    await fitsThePhone(page, "the Chorus search");

    await page.goto("/admin/queues");
    await page.locator(".staff-table").getByText("render").first().waitFor();
    await fitsThePhone(page, "the queues' health");
    await saveScreenshot(page, "admin-queues-phone");
    await page.context().close();
  });
});
