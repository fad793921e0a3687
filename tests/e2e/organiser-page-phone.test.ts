import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { addInvitee, parseInvitee } from "~/services/invitations/invitations.server";
import { createUser, PASSWORD, uniqueEmail } from "../support/accounts";
import { chromiumPath, collectPageErrors, DESKTOP, gotoHydrated, logInBrowser, newPage, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";

// Folded, the organiser's page of a new Chorus with three invitees takes at most half the height of
// the same page with every part open (6,330 px at 375 px wide before there was a gift card part).
const pageHeight = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);

async function organiserPage(e2e: ReturnType<typeof useServerAndBrowser>, viewport: { width: number; height: number }) {
  const organiser = await createUser();
  const event = await createTestEvent(organiser);
  for (const name of ["Dee", "Eli", "Fay"]) await addInvitee(event, parseInvitee({ name, email: uniqueEmail(name.toLowerCase()) }));
  const page = await newPage(e2e.browser, e2e.server.url, { viewport });
  await logInBrowser(page, organiser.email, PASSWORD);
  return { page, event };
}

describe.skipIf(!chromiumPath)("the organiser's page on a phone", () => {
  const e2e = useServerAndBrowser();

  test("starts with the next step, folds the rarely used parts, and is half as tall as every panel stacked", async () => {
    const { page, event } = await organiserPage(e2e, PHONE);
    const errors = collectPageErrors(page);
    await gotoHydrated(page, `/e/${event.uuid}`);
    await page.locator(".event-page[data-unfolding]").waitFor();

    const firstCard = page.locator(".event-page > .card").first();
    expect(await firstCard.getAttribute("class")).toContain("next-step");
    expect(await firstCard.innerText()).toContain("Invite people");

    const height = await pageHeight(page);
    await saveScreenshot(page, "organiser-page-375");
    await page.evaluate(() =>
      document.querySelectorAll<HTMLDetailsElement>(".event-page > details.event-fold").forEach((part) => (part.open = true)),
    );
    const unfolded = await pageHeight(page);
    expect(unfolded).toBeGreaterThan(6_000);
    expect(height).toBeLessThanOrEqual(unfolded / 2);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test("a chip of the section nav jumps to its folded section and opens it", async () => {
    const { page, event } = await organiserPage(e2e, PHONE);
    await gotoHydrated(page, `/e/${event.uuid}`);
    await page.locator(".event-page[data-unfolding]").waitFor();
    const settings = page.locator("#settings");
    expect(await settings.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);

    await page.locator(".event-nav").getByRole("link", { name: "Settings" }).click();
    await page.waitForURL((url) => url.hash === "#settings");
    expect(await settings.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    await page.getByRole("button", { name: "Save changes" }).waitFor({ state: "visible" });
    // The section's heading is in view, below the nav that stays under the header.
    const heading = (await page.locator("#settings-heading").boundingBox())!;
    const nav = (await page.locator(".event-nav").boundingBox())!;
    expect(heading.y).toBeGreaterThanOrEqual(nav.y + nav.height);
    expect(heading.y).toBeLessThan(PHONE.height);
    await page.context().close();
  });

  test("an address naming a folded section opens it", async () => {
    const { page, event } = await organiserPage(e2e, PHONE);
    await gotoHydrated(page, `/e/${event.uuid}#delete`);
    await page.locator(".event-page[data-unfolding]").waitFor();
    expect(await page.locator("#delete").evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    await page.context().close();
  });

  test("on a wide screen the folded sections are open", async () => {
    const { page, event } = await organiserPage(e2e, DESKTOP);
    await gotoHydrated(page, `/e/${event.uuid}`);
    await page.locator(".event-page[data-unfolding]").waitFor();
    expect(await page.locator("#settings").evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    await saveScreenshot(page, "organiser-page-1280");
    await page.context().close();
  });

  test("without JavaScript every folded section still opens from its summary", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser);
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    await logInBrowser(page, organiser.email, PASSWORD);
    await page.goto(`/e/${event.uuid}`);
    await page.locator("#settings > summary").click();
    await page.getByRole("button", { name: "Save changes" }).waitFor({ state: "visible" });
    await page.context().close();
  });
});
