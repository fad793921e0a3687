import type { Page, Request, Route } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { makeTempDir } from "../media/support/media-fixtures";
import { createUser } from "../support/accounts";
import { chromiumPath, newPage, PHONE, saveScreenshot } from "../support/browser";
import { originalsOf } from "../support/contributions";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";
import { expectBrowserConsoleError } from "../support/fail-on-browser-console-error";
import { makeClip, sha256File } from "../support/media-fixtures";

// What a contributor meets when the link cuts one request of the page off: a file of the app's
// scripts, a chunk loaded later, or the page itself. Each cut is made by Playwright on one request,
// so these run at full speed (with no service worker, whose requests the page's routes would not see); tests/e2e/contributors-on-bad-links.test.ts has them all at once.

let dir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
let photo: string;
let clip: string;
beforeAll(async () => {
  dir = await makeTempDir("e2e-contribute-cut-link");
  photo = dir.path("beach.jpg");
  await sharp({ create: { width: 800, height: 600, channels: 3, background: "#2a9d8f" } })
    .jpeg()
    .toFile(photo);
  clip = await makeClip(dir.path("wave.mp4"), { seconds: 2 });
});
afterAll(async () => {
  await dir?.remove();
});

const pathOf = (request: Request) => new URL(request.url()).pathname;

/** The first request of each address matching `pattern` (or only the first `times`) is cut off by the link. */
async function cutFirst(page: Page, pattern: RegExp, times = 1) {
  const seen = new Map<string, number>();
  await page.route(pattern, async (route: Route) => {
    const path = pathOf(route.request());
    const count = (seen.get(path) ?? 0) + 1;
    seen.set(path, count);
    if (count <= times) await route.abort("connectionreset");
    else await route.continue();
  });
  return seen;
}

/** The requests a page makes that the server would see as an upload: tus creations and plain form posts. */
function postsOf(page: Page) {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(pathOf(request));
  });
  return posts;
}

const card = (page: Page, name: string) => page.locator(".upload-item").filter({ hasText: name });
const hydrated = (page: Page) => page.locator("form.contribution-form[data-ready]").waitFor({ timeout: 30_000 });

describe.skipIf(!chromiumPath)("a contributor whose link cuts a request off", () => {
  const e2e = useServerAndBrowser();
  // Every test here cuts the page's requests off itself: the browser logs each one, and an entry
  // module cut off is a failed import the page recovers from by fetching it again (decision 050).
  beforeEach(() => {
    expectBrowserConsoleError(/net::ERR_CONNECTION_RESET/, "the test cuts this request off");
    expectBrowserConsoleError(
      /Failed to fetch dynamically imported module/,
      "the test cuts the app's entry off; the page fetches it again",
    );
  });

  test("the upload client cut off by the link: the card waits for signal and the file goes by itself, with no Retry to press", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, serviceWorkers: "block" });
    const cuts = await cutFirst(page, /\/build\/.*upload-client-[^/]*\.js$/, 2);
    await page.goto(`/e/${event.uuid}`);
    await hydrated(page);
    await page.getByLabel("Your name").fill("Ravi");
    await page.getByLabel("Photos and videos").setInputFiles(photo);
    await page.getByRole("button", { name: "Upload" }).click();

    await card(page, "beach.jpg").getByText("Waiting for signal").waitFor();
    expect(await page.getByText(/press Retry/i).count()).toBe(0);
    expect(await card(page, "beach.jpg").getByRole("button", { name: "Retry" }).count()).toBe(0);
    await expect.poll(() => originalsOf(event)).toEqual([{ name: "beach.jpg", by: "Ravi", sha: await sha256File(photo) }]);
    await card(page, "beach.jpg")
      .getByText(/Uploaded ✓|Getting it ready…|Ready ✓/)
      .waitFor();
    expect([...cuts.values()]).toEqual([3]);
    await page.context().close();
  });

  test("the contributor's view cut off by the link is fetched again: the form stays and sends", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, serviceWorkers: "block" });
    const cuts = await cutFirst(page, /\/build\/.*event-contributor-view-[^/]*\.js$/);
    await page.goto(`/e/${event.uuid}`);
    await hydrated(page);
    expect(await page.getByText("Something went wrong").count()).toBe(0);
    expect([...cuts.values()]).toEqual([2]);
    await page.getByLabel("Photos and videos").setInputFiles(photo);
    await page.getByRole("button", { name: "Upload" }).click();
    await expect.poll(() => originalsOf(event)).toEqual([{ name: "beach.jpg", by: "", sha: await sha256File(photo) }]);
    await page.context().close();
  });

  test("every one of the app's scripts cut off once: they are fetched again and the app starts", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, serviceWorkers: "block" });
    const cuts = await cutFirst(page, /\/build\/.*\.js$/);
    await page.goto(`/e/${event.uuid}`);
    await hydrated(page);
    expect(await page.getByText("Something went wrong").count()).toBe(0);
    expect(cuts.size).toBeGreaterThan(10);
    await page.context().close();
  });

  test("the app's entry alone cut off (its import fails without an error event): it is fetched again and the app starts", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, serviceWorkers: "block" });
    // The entry's preload and its import by Remix's module script.
    const cuts = await cutFirst(page, /\/build\/entry\.client-[^/]*\.js$/, 2);
    await page.goto(`/e/${event.uuid}`);
    await hydrated(page);
    expect([...cuts.values()]).toEqual([3]);
    await page.context().close();
  });

  test("a page cut short just after the form: a press is held, not posted, and the page's early uploader sends the files", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, serviceWorkers: "block" });
    const posts = postsOf(page);
    await page.route(`**/e/${event.uuid}`, async (route) => {
      if (route.request().resourceType() !== "document") return route.continue();
      const answer = await route.fetch();
      const html = await answer.text();
      const cutAt = html.indexOf("</form>") + "</form>".length;
      await route.fulfill({
        status: 200,
        headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": answer.headers()["content-security-policy"]! },
        body: html.slice(0, cutAt),
      });
    });
    await page.goto(`/e/${event.uuid}`);
    await page.getByLabel("Your name").fill("Mia");
    await page.getByLabel("A message (optional)").fill("Happy birthday, Ana!");
    await page.getByLabel("Photos and videos").setInputFiles([photo, clip]);
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByText("Getting ready to send…").waitFor();

    // The app cannot start on this page (its scripts were never sent): after a few seconds the files go anyway.
    await card(page, "beach.jpg")
      .getByText(/Uploading|Uploaded ✓/)
      .waitFor({ timeout: 15_000 });
    await expect
      .poll(async () => (await originalsOf(event)).sort((a, b) => a.name.localeCompare(b.name)), { timeout: 30_000 })
      .toEqual([
        { name: "beach.jpg", by: "Mia", sha: await sha256File(photo) },
        { name: "wave.mp4", by: "Mia", sha: await sha256File(clip) },
      ]);
    await card(page, "wave.mp4").getByText("Uploaded ✓").waitFor();
    expect(await card(page, "beach.jpg").textContent()).toContain("Uploaded ✓");
    expect(await page.getByText("Getting ready to send…").isVisible()).toBe(false);
    expect(posts.filter((path) => path.endsWith("/contribute"))).toEqual([]);
    expect(new URL(page.url()).pathname).toBe(`/e/${event.uuid}`);
    await saveScreenshot(page, "contribute-early-uploader-phone");
    await page.context().close();
  });

  test("the app's scripts never arriving: a press is sent by the early uploader within seconds, and the app, once started, sends nothing twice", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, serviceWorkers: "block" });
    const posts = postsOf(page);
    let letScriptsThrough = () => {};
    const scriptsHeld = new Promise<void>((resolve) => (letScriptsThrough = resolve));
    await page.route(/\/build\/.*\.js$/, async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    await page.goto(`/e/${event.uuid}`, { waitUntil: "commit" });
    await page.getByLabel("Your name").fill("Ines");
    await page.getByLabel("Photos and videos").setInputFiles(photo);
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByText("Getting ready to send…").waitFor();
    await expect.poll(() => originalsOf(event)).toEqual([{ name: "beach.jpg", by: "Ines", sha: await sha256File(photo) }]);
    await card(page, "beach.jpg").getByText("Uploaded ✓").waitFor();

    // The scripts arrive at last: the app takes the form over. The photo picked again is not sent
    // again; a clip goes up through the app's own uploads.
    letScriptsThrough();
    await hydrated(page);
    await page.getByLabel("Photos and videos").setInputFiles([photo, clip]);
    await page.getByRole("button", { name: "Upload" }).click();
    await expect
      .poll(async () => (await originalsOf(event)).map((o) => o.name).sort(), { timeout: 30_000 })
      .toEqual(["beach.jpg", "wave.mp4"]);
    await card(page, "wave.mp4")
      .getByText(/Uploaded ✓|Getting it ready…|Ready ✓/)
      .waitFor();
    expect(await card(page, "beach.jpg").count()).toBe(1);
    expect(posts.filter((path) => path === "/uploads/tus")).toHaveLength(2);
    expect(posts.filter((path) => path.endsWith("/contribute"))).toEqual([]);
    await page.context().close();
  }, 90_000);

  test("what sends files in the app cut off by the link for longer than a few seconds: the early uploader sends the files pressed", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, serviceWorkers: "block" });
    const posts = postsOf(page);
    // Tried again after 1, 2, 4 and 8 s: cut every time for the first 15 s.
    await cutFirst(page, /\/build\/.*upload-list-[^/]*\.js$/, 5);
    await page.goto(`/e/${event.uuid}`);
    await hydrated(page);
    await page.getByLabel("Your name").fill("Tom");
    await page.getByLabel("Photos and videos").setInputFiles(photo);
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByText("Getting ready to send…").waitFor();
    await card(page, "beach.jpg")
      .getByText(/Uploading|Uploaded ✓/)
      .waitFor({ timeout: 15_000 });
    await expect.poll(() => originalsOf(event)).toEqual([{ name: "beach.jpg", by: "Tom", sha: await sha256File(photo) }]);
    await card(page, "beach.jpg").getByText("Uploaded ✓").waitFor();
    expect(await page.getByText("Getting ready to send…").isVisible()).toBe(false);
    expect(posts.filter((path) => path === "/uploads/tus")).toHaveLength(1);
    await page.context().close();
  });

  test("a file picked again after a reload, once it was sent, is shown as sent and not sent twice", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, serviceWorkers: "block" });
    await page.goto(`/e/${event.uuid}`);
    await hydrated(page);
    await page.getByLabel("Photos and videos").setInputFiles(photo);
    await page.getByRole("button", { name: "Upload" }).click();
    await card(page, "beach.jpg")
      .getByText(/Uploaded ✓|Getting it ready…|Ready ✓/)
      .waitFor();

    await page.reload();
    await hydrated(page);
    await page.getByLabel("Photos and videos").setInputFiles(photo);
    await page.getByRole("button", { name: "Upload" }).click();
    const again = card(page, "beach.jpg");
    await again.getByText("You sent this file earlier: it is not sent again.").waitFor();
    expect(await again.textContent()).toContain("Uploaded ✓");
    await page.waitForTimeout(1000);
    expect(await originalsOf(event)).toHaveLength(1);
    await page.context().close();
  });
});
