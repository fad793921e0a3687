import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { createUser, PASSWORD, uniqueEmail } from "../support/accounts";
import { chromiumPath, gotoHydrated, logInBrowser, newPage } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { expectBrowserConsoleError } from "../support/fail-on-browser-console-error";

describe.skipIf(!chromiumPath)("account journey in Chromium", () => {
  const e2e = useServerAndBrowser();

  async function register(page: Page, email: string) {
    await page.goto("/auth/register");
    const main = page.locator("main");
    await main.getByLabel("E-mail").fill(email);
    await main.getByLabel("Password").fill(PASSWORD);
    await main.getByRole("button", { name: "Create Account" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
  }

  /**
   * The check-your-inbox page points to the local outbox, which lists the mail. The link is
   * read from the outbox table: /dev/outbox/:id renders inside dev.outbox.tsx, which has no
   * <Outlet />, so the message page shows the list instead of the message.
   */
  async function confirmFromOutbox(page: Page, email: string) {
    await page.getByRole("link", { name: "local outbox" }).click();
    const row = page.getByRole("row").filter({ hasText: email });
    await row.getByRole("link", { name: "Confirm your e-mail address for Chorus" }).click();
    const link = page.getByRole("link", { name: /\/auth\/activate\// });
    const activatePath = new URL((await link.getAttribute("href"))!, page.url()).pathname;
    await link.click();
    // The link proves the address: it signs the owner in and lands them on their dashboard.
    await page.getByRole("heading", { name: "My Choruses" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    return activatePath;
  }

  /** The link works once: a second visit explains itself instead of signing anyone in. */
  async function checkLinkIsSpent(page: Page, activatePath: string) {
    expectBrowserConsoleError(
      /status of 410 \(Gone\) \(http:\/\/[^/]+\/auth\/activate\//,
      "a spent confirmation link is opened again on purpose, and answers 410",
    );
    await page.goto(activatePath);
    await page.getByRole("heading", { name: "This link didn't work" }).waitFor();
  }

  async function logIn(page: Page, email: string) {
    await page.goto("/auth/login");
    const main = page.locator("main");
    await main.getByLabel("E-mail").fill(email);
    await main.getByLabel("Password").fill(PASSWORD);
    await main.getByRole("button", { name: "Log In" }).click();
    await page.getByRole("heading", { name: "My Choruses" }).waitFor();
  }

  /** Opens the account menu and checks what a logged-in, non-member, non-admin user sees. */
  async function checkAccountMenuOf(page: Page, email: string) {
    const menu = page.locator("details.account-menu");
    await menu.locator("summary").click();
    const panel = menu.locator(".account-menu__panel");
    await panel.waitFor();
    await panel.getByText(`Logged in as ${email}`).waitFor();
    expect(await panel.getByRole("link", { name: "My Choruses" }).isVisible()).toBe(true);
    expect(await panel.getByRole("link", { name: "Account" }).isVisible()).toBe(true);
    expect(await panel.getByRole("link", { name: "Admin" }).count()).toBe(0);
    expect(await panel.locator(".vip-card").innerText()).toMatch(
      /Go VIP with Chorus\s+More savings, more perks, more reasons to celebrate\./,
    );
    expect(await panel.getByRole("button", { name: "Log Out" }).isVisible()).toBe(true);
  }

  /** Logs out from the open account menu; the header then offers Log In again. */
  async function logOut(page: Page) {
    await page.locator("details.account-menu").getByRole("button", { name: "Log Out" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await expect.poll(() => page.locator("details.account-menu > summary").innerText()).toBe("Log In ▾");
  }

  test("with JavaScript: register, confirm from the outbox (signed in), log out, log in, use the account menu, log out", async () => {
    const page = await newPage(e2e.browser, e2e.server.url);
    const email = uniqueEmail("e2e-js");

    await register(page, email);
    const activatePath = await confirmFromOutbox(page, email);
    await page.locator(".toasts[role=status]").getByText("Your e-mail is confirmed").waitFor();
    await page.locator("details.account-menu > summary").click();
    await logOut(page);
    await checkLinkIsSpent(page, activatePath);
    await logIn(page, email);
    // The redirect after log-in carries the analytics flag; the shell sends the event and drops it.
    await expect.poll(() => new URL(page.url()).search).toBe("");
    expect(new URL(page.url()).pathname).toBe("/dashboard");

    await checkAccountMenuOf(page, email);
    await logOut(page);
    // The toast region shows it: the <noscript> copy stays unrendered text with JavaScript on.
    await page.locator(".toasts[role=status]").getByText("You have been logged out!").waitFor();
    await page.context().close();
  });

  test("without JavaScript: the same journey works with plain forms and <details>", async () => {
    const page = await newPage(e2e.browser, e2e.server.url, { javaScriptEnabled: false });
    const email = uniqueEmail("e2e-nojs");

    await register(page, email);
    const activatePath = await confirmFromOutbox(page, email);
    expect(await page.locator("noscript .toast").innerText()).toContain("Your e-mail is confirmed");
    await page.locator("details.account-menu > summary").click();
    await logOut(page);
    await checkLinkIsSpent(page, activatePath);
    await logIn(page, email);
    // No script runs to consume the analytics flag: it stays in the URL and does nothing.
    expect(new URL(page.url()).searchParams.get("gtm_event_login")).toBe("1");

    await checkAccountMenuOf(page, email);
    await logOut(page);
    // The server-rendered copy inside <noscript> shows the toast (Chromium renders it without scripts).
    const toast = page.locator("noscript .toast");
    await toast.waitFor();
    expect(await toast.innerText()).toContain("You have been logged out!");
    await page.context().close();
  });

  test("Escape closes the account menu and gives focus back to its button", async () => {
    const page = await newPage(e2e.browser, e2e.server.url);
    await gotoHydrated(page, "/");
    const menu = page.locator("details.account-menu");
    await menu.locator("summary").click();
    await menu.getByRole("link", { name: "Create Account" }).waitFor();

    await page.keyboard.press("Escape");

    await expect.poll(() => menu.evaluate((details: HTMLDetailsElement) => details.open)).toBe(false);
    expect(await menu.locator("summary").evaluate((summary) => summary === document.activeElement)).toBe(true);
    await page.context().close();
  });

  test("a click outside closes the account menu", async () => {
    const page = await newPage(e2e.browser, e2e.server.url);
    await gotoHydrated(page, "/");
    const menu = page.locator("details.account-menu");
    await menu.locator("summary").click();
    await menu.getByRole("link", { name: "Log In" }).waitFor();

    await page.getByRole("heading", { name: "How it works" }).click();

    await expect.poll(() => menu.evaluate((details: HTMLDetailsElement) => details.open)).toBe(false);
    await page.context().close();
  });

  test("logging out in one tab logs out the other tabs, and the tab that logged out keeps its toast", async () => {
    const first = await newPage(e2e.browser, e2e.server.url);
    const { email } = await createUser();
    await logInBrowser(first, email, PASSWORD);
    const second = await first.context().newPage();
    await Promise.all([gotoHydrated(first, "/dashboard"), gotoHydrated(second, "/dashboard")]);

    await first.locator("details.account-menu > summary").click();
    await logOut(first);

    await expect.poll(() => second.locator("details.account-menu > summary").innerText()).toBe("Log In ▾");
    await first.locator(".toasts[role=status]").getByText("You have been logged out!").waitFor();
    await first.context().close();
  });
});
