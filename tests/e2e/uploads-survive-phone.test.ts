import { stat } from "node:fs/promises";
import type { Event } from "drizzle/schema";
import type { BrowserContext, Page, Request } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FIRST_CHUNK_BYTES } from "~/lib/browser/upload-chunk-size";
import { db } from "~/lib/db.server";
import { runFfmpeg } from "~/media/run.server";
import { listMediaOfEvent } from "~/models/media.server";
import { storage } from "~/services/media/storage.server";
import { makeTempDir } from "../media/support/media-fixtures";
import { createUser } from "../support/accounts";
import { chromiumPath, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";
import { sha256File } from "../support/media-fixtures";

let dir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
let clip: string;
let photo: string;
beforeAll(async () => {
  dir = await makeTempDir("e2e-uploads-survive");
  // About 5 MB of video that does not compress: noise at a fixed rate.
  clip = dir.path("long-hello.mp4");
  await runFfmpeg([
    "-hide_banner",
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "nullsrc=size=640x360:rate=25:duration=3,geq=lum='random(1)*255':cb=128:cr=128",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-b:v",
    "14M",
    "-maxrate",
    "14M",
    "-bufsize",
    "4M",
    "-pix_fmt",
    "yuv420p",
    clip,
  ]);
  photo = dir.path("early.jpg");
  await sharp({ create: { width: 800, height: 600, channels: 3, background: "#d53a7b" } })
    .jpeg()
    .toFile(photo);
});
afterAll(async () => {
  await dir?.remove();
});

// How long a click, a page load or a wait for text may take: pages come over an emulated phone link
// while other test files, their servers and ffmpeg share the machine's two cores.
const ACTION_TIMEOUT_MS = 30_000;

const uploadPath = (request: Request) => new URL(request.url()).pathname.startsWith("/uploads/tus");

/**
 * A page of `context` on about 400 kbit/s up and 800 kbit/s down (a 5 MB file takes a minute and a
 * half to send), or `upKbit` up and twice that down.
 */
async function newThrottledPage(context: BrowserContext, upKbit = 400) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 150,
    downloadThroughput: (upKbit * 2 * 1000) / 8,
    uploadThroughput: (upKbit * 1000) / 8,
  });
  return page;
}

/** The files this browser keeps to send on (kept-files.ts), by name. */
const keptNames = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open("chorus-files");
        // Looking must not create the database (the page makes it, with its store, when it first keeps a file).
        let absent = false;
        open.onupgradeneeded = () => {
          absent = true;
          open.transaction?.abort();
        };
        open.onerror = () => (absent ? resolve([]) : reject(open.error));
        open.onsuccess = () => {
          const database = open.result;
          if (!database.objectStoreNames.contains("files")) {
            database.close();
            return resolve([]);
          }
          const all = database.transaction("files").objectStore("files").getAll();
          all.onsuccess = () => {
            resolve((all.result as { file: File }[]).map((k) => k.file.name));
            database.close();
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );

async function originalsOf(event: Event) {
  const media = await listMediaOfEvent(db(), event.id);
  return Promise.all(
    media.map(async (m) => ({
      name: m.originalName,
      by: m.contributorName,
      sha: await sha256File((await storage().localCopy(m.originalKey)).path),
    })),
  );
}

describe.skipIf(!chromiumPath)("uploads that outlive the page, on a phone", () => {
  const e2e = useServerAndBrowser();

  test("a file picked once goes on by itself when the link is opened again after the page was closed half-way", async () => {
    const event = await createTestEvent(await createUser());
    const size = (await stat(clip)).size;
    expect(size).toBeGreaterThan(4 * 1024 * 1024);
    const context = await e2e.browser.newContext({ baseURL: e2e.server.url, viewport: PHONE });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    // The upload requests of the second visit, and the offset each chunk starts at.
    const secondVisit: { method: string; offset: number }[] = [];
    const page = await newThrottledPage(context);
    await page.goto(`/e/${event.uuid}`);
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Your name").fill("Noor");
    await page.getByLabel("Photos and videos").setInputFiles(clip);
    await page.getByRole("button", { name: "Upload" }).click();
    const card = page.locator(".upload-item").filter({ hasText: "long-hello.mp4" });
    await expect
      .poll(async () => Number(/(\d+)%/.exec((await card.textContent()) ?? "")?.[1] ?? 0), { timeout: 90_000, interval: 500 })
      .toBeGreaterThanOrEqual(45);
    expect(await keptNames(page)).toEqual(["long-hello.mp4"]);
    // What the browser had handed to the network when the page closed.
    const pushed = Number(await card.locator("progress").getAttribute("value"));
    await page.close();

    // The link opened again, nothing picked: the kept file goes on from the server's offset, on a
    // better link (the rest takes seconds: long enough to see it sending, with its Cancel).
    const again = await newThrottledPage(context, 3200);
    again.on("request", (request) => {
      if (uploadPath(request)) secondVisit.push({ method: request.method(), offset: Number(request.headers()["upload-offset"] ?? -1) });
    });
    await again.goto(`/e/${event.uuid}`);
    // The page is served, hydrated, its view's chunk loaded and the kept file read back before it
    // says so: on a busy machine that takes longer than a click does.
    await again.getByText("Sending the file you picked earlier").waitFor({ timeout: 30_000 });
    expect(await again.getByText(/interrupted/).count()).toBe(0);
    const resumed = again.locator(".upload-item").filter({ hasText: "long-hello.mp4" });
    expect(await resumed.getByRole("button", { name: "Cancel" }).count()).toBe(1);
    await expect
      .poll(() => originalsOf(event), { timeout: 60_000 })
      .toEqual([{ name: "long-hello.mp4", by: "Noor", sha: await sha256File(clip) }]);
    await resumed.getByText(/Uploaded ✓|Getting it ready…|Ready ✓/).waitFor();

    // The same upload went on (no new one was created) from the server's offset, which is at most
    // one chunk short of what the first visit had sent: those are the only bytes sent twice.
    expect(secondVisit.filter((r) => r.method === "POST")).toEqual([]);
    const resumedAt = secondVisit.find((r) => r.method === "PATCH")!.offset;
    expect(resumedAt).toBeGreaterThanOrEqual(FIRST_CHUNK_BYTES);
    expect(pushed - resumedAt).toBeLessThanOrEqual(FIRST_CHUNK_BYTES);
    // Sent: the browser no longer keeps it, and a later visit neither sends it again nor lists it.
    await expect.poll(() => keptNames(again)).toEqual([]);
    await again.reload();
    await again.waitForLoadState("networkidle");
    expect(await again.getByText(/picked earlier|interrupted/).count()).toBe(0);
    expect(await listMediaOfEvent(db(), event.id)).toHaveLength(1);
    await context.close();
  }, 240_000);

  test("a file the page's early uploader was sending, the app's scripts never having come, goes on from the server's offset when the link is opened again", async () => {
    const event = await createTestEvent(await createUser());
    const context = await e2e.browser.newContext({ baseURL: e2e.server.url, viewport: PHONE });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const page = await newThrottledPage(context);
    // On this visit the app's scripts never arrive: the press is held, then sent by the early uploader.
    await page.route(/\/build\/.*\.js$/, () => new Promise<void>(() => {}));
    await page.goto(`/e/${event.uuid}`, { waitUntil: "commit" });
    await page.getByLabel("Your name").fill("Noor");
    await page.getByLabel("Photos and videos").setInputFiles(clip);
    await page.getByRole("button", { name: "Upload" }).click();
    const card = page.locator(".upload-item").filter({ hasText: "long-hello.mp4" });
    await expect
      .poll(async () => Number(/(\d+)%/.exec((await card.textContent()) ?? "")?.[1] ?? 0), { timeout: 90_000, interval: 500 })
      .toBeGreaterThanOrEqual(30);
    expect(await page.locator("form.contribution-form[data-ready]").count()).toBe(0);
    expect(await keptNames(page)).toEqual(["long-hello.mp4"]);
    const pushed = Number(await card.locator("progress").getAttribute("value"));
    await page.close();

    // Opened again, with its scripts: the app sends on the kept file, on the upload the early uploader began.
    const secondVisit: { method: string; offset: number }[] = [];
    const again = await newThrottledPage(context, 3200);
    again.on("request", (request) => {
      if (uploadPath(request)) secondVisit.push({ method: request.method(), offset: Number(request.headers()["upload-offset"] ?? -1) });
    });
    await again.goto(`/e/${event.uuid}`);
    await again.getByText("Sending the file you picked earlier").waitFor({ timeout: 30_000 });
    await expect
      .poll(() => originalsOf(event), { timeout: 60_000 })
      .toEqual([{ name: "long-hello.mp4", by: "Noor", sha: await sha256File(clip) }]);
    expect(secondVisit.filter((r) => r.method === "POST")).toEqual([]);
    const resumedAt = secondVisit.find((r) => r.method === "PATCH")!.offset;
    expect(resumedAt).toBeGreaterThan(0);
    expect(pushed - resumedAt).toBeLessThanOrEqual(FIRST_CHUNK_BYTES);
    await expect.poll(() => keptNames(again)).toEqual([]);
    await context.close();
  }, 240_000);

  test("Cancel on a file sent on from an earlier visit stops it and frees it", async () => {
    const event = await createTestEvent(await createUser());
    const context = await e2e.browser.newContext({ baseURL: e2e.server.url, viewport: PHONE });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const page = await newThrottledPage(context);
    await page.goto(`/e/${event.uuid}`);
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Photos and videos").setInputFiles(clip);
    await page.getByRole("button", { name: "Upload" }).click();
    await expect.poll(() => keptNames(page)).toEqual(["long-hello.mp4"]);
    await page.close();

    const again = await newThrottledPage(context);
    await again.goto(`/e/${event.uuid}`);
    await again.getByText("Sending the file you picked earlier").waitFor({ timeout: 30_000 });
    await saveScreenshot(again, "uploads-sent-on-phone");
    await again.locator(".upload-item").filter({ hasText: "long-hello.mp4" }).getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => keptNames(again)).toEqual([]);
    expect(await again.getByText("Sending the file you picked earlier").count()).toBe(0);
    await again.reload();
    await again.waitForLoadState("networkidle");
    expect(await again.getByText(/picked earlier|interrupted/).count()).toBe(0);
    expect(await listMediaOfEvent(db(), event.id)).toEqual([]);
    await context.close();
  }, 120_000);

  test("a browser that cannot keep files says so after a reload, with the reason, as before", async () => {
    const event = await createTestEvent(await createUser());
    const context = await e2e.browser.newContext({ baseURL: e2e.server.url, viewport: PHONE });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    // As in a browser without IndexedDB.
    await context.addInitScript(() => Object.defineProperty(window, "indexedDB", { value: undefined }));
    const page = await newThrottledPage(context);
    await page.goto(`/e/${event.uuid}`);
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Photos and videos").setInputFiles(clip);
    await page.getByRole("button", { name: "Upload" }).click();
    await page.locator(".upload-item").filter({ hasText: "Uploading" }).waitFor();
    await page.reload();
    await page.waitForLoadState("networkidle");
    const note = page.getByText(/An upload was interrupted: long-hello\.mp4\. Choose the same file again/);
    await note.waitFor();
    expect(await note.textContent()).toContain(
      "Your browser could not keep long-hello.mp4 to send it on by itself: this browser does not keep files for pages.",
    );
    expect(await page.getByText("picked earlier").count()).toBe(0);
    await context.close();
  }, 120_000);

  test("a press of Upload before the page's script has started is held and sent through the resumable upload", async () => {
    const event = await createTestEvent(await createUser());
    const context = await e2e.browser.newContext({ baseURL: e2e.server.url, viewport: PHONE });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
    });
    // The app's script is held back until the contributor has pressed Upload.
    let letScriptsThrough = () => {};
    const scriptsHeld = new Promise<void>((resolve) => (letScriptsThrough = resolve));
    await page.route(/\.js(\?|$)/, async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    await page.goto(`/e/${event.uuid}`, { waitUntil: "commit" });
    await page.getByLabel("Your name").fill("Ines");
    await page.getByLabel("Photos and videos").setInputFiles(photo);
    await page.getByRole("button", { name: "Upload" }).click();
    const waiting = page.getByText("Getting ready to send…");
    await waiting.waitFor({ state: "visible" });
    await saveScreenshot(page, "uploads-early-press-waiting-phone");
    expect(await page.locator("form.contribution-form[data-ready]").count()).toBe(0);

    letScriptsThrough();
    await page.locator(".upload-item").filter({ hasText: "early.jpg" }).waitFor();
    await expect
      .poll(() => originalsOf(event), { timeout: 30_000 })
      .toEqual([{ name: "early.jpg", by: "Ines", sha: await sha256File(photo) }]);
    expect(await waiting.isVisible()).toBe(false);
    expect(posts).toContain("/uploads/tus");
    expect(posts.filter((p) => p.endsWith("/contribute"))).toEqual([]);
    expect(new URL(page.url()).pathname).toBe(`/e/${event.uuid}`);
    await context.close();
  }, 120_000);
});
