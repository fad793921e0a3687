import { stat } from "node:fs/promises";
import type { Event } from "drizzle/schema";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { FIRST_CHUNK_BYTES } from "~/lib/browser/upload-chunk-size";
import { db } from "~/lib/db.server";
import { runFfmpeg } from "~/media/run.server";
import { listMediaOfEvent } from "~/models/media.server";
import { storage } from "~/services/media/storage.server";
import { makeTempDir } from "../media/support/media-fixtures";
import { createUser, PASSWORD } from "../support/accounts";
import { chromiumPath, logInBrowser, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";
import { expectBrowserConsoleError } from "../support/fail-on-browser-console-error";
import { sha256File } from "../support/media-fixtures";
import { startUploadCountingProxy } from "../support/upload-counting-proxy";

let dir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
let clip: string;
beforeAll(async () => {
  dir = await makeTempDir("e2e-uploads-offline");
  // About 3 MB of video that does not compress: noise at a fixed rate. More than one first chunk
  // (FIRST_CHUNK_BYTES), so a cut lands inside an upload that has already sent a chunk or more.
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
    "8M",
    "-maxrate",
    "8M",
    "-bufsize",
    "4M",
    "-pix_fmt",
    "yuv420p",
    clip,
  ]);
});
afterAll(async () => {
  await dir?.remove();
});

/** About 800 kbit/s up and 1.6 Mbit/s down (a poor mobile link): a 3 MB file takes about 30 s to send. */
const SLOW_LINK = { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 100_000 };

async function newThrottledPage(context: BrowserContext) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", SLOW_LINK);
  return { page, cdp };
}

/** The signal comes back: the page is online again, on the same slow link. */
async function backOnline(context: BrowserContext, cdp: CDPSession) {
  await context.setOffline(false);
  await cdp.send("Network.emulateNetworkConditions", SLOW_LINK);
}

/** What the service worker keeps: the pages, and the build files this page loaded that it does not keep. */
const offlineKeeping = (page: Page) =>
  page.evaluate(async () => {
    const names = await caches.keys();
    const pagesName = names.find((n) => n.startsWith("chorus-pages-"));
    const assetsName = names.find((n) => n.startsWith("chorus-assets-"));
    const pages = pagesName ? (await (await caches.open(pagesName)).keys()).map((r) => new URL(r.url).pathname) : [];
    const assets = assetsName ? (await (await caches.open(assetsName)).keys()).map((r) => new URL(r.url).pathname) : [];
    const loaded = performance
      .getEntriesByType("resource")
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.startsWith("/build/"));
    return { caches: names.length, pages, notKept: loaded.filter((p) => !assets.includes(p)) };
  });

const percentOf = async (page: Page, name: string) =>
  Number(/(\d+)%/.exec((await page.locator(".upload-item").filter({ hasText: name }).textContent()) ?? "")?.[1] ?? 0);

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

const OFFLINE = "You're offline — your files will send when you're back online.";

describe.skipIf(!chromiumPath)("the contributor page with no connection, on a phone", () => {
  // The phone's connection is taken away on purpose: the browser says so for every request and socket
  // it could not make. Anything else in its console still fails the test.
  beforeEach(() =>
    expectBrowserConsoleError(
      /net::ERR_(INTERNET_DISCONNECTED|FAILED)|WebSocket connection to .* failed/,
      "the test takes the phone's connection away",
    ),
  );
  const e2e = useServerAndBrowser();
  let proxy: Awaited<ReturnType<typeof startUploadCountingProxy>>;
  beforeAll(async () => {
    proxy = await startUploadCountingProxy(e2e.server.url);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  test("an upload cut off by a lost connection goes on by itself when the connection is back", async () => {
    const event = await createTestEvent(await createUser());
    const size = (await stat(clip)).size;
    const context = await e2e.browser.newContext({ baseURL: proxy.url, viewport: PHONE });
    context.setDefaultTimeout(30_000);
    const { page, cdp } = await newThrottledPage(context);
    const creations: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/uploads/tus")) creations.push(request.url());
    });
    await page.goto(`/e/${event.uuid}`);
    await page.waitForLoadState("networkidle");
    expect(await page.getByText(OFFLINE).count()).toBe(0);
    const before = proxy.patchBytes();
    await page.getByLabel("Your name").fill("Ada");
    await page.getByLabel("Photos and videos").setInputFiles(clip);
    await page.getByRole("button", { name: "Upload" }).click();
    await expect.poll(() => percentOf(page, "long-hello.mp4"), { timeout: 90_000, interval: 500 }).toBeGreaterThanOrEqual(30);

    await context.setOffline(true);
    await page.getByText(OFFLINE).waitFor();
    const card = page.locator(".upload-item").filter({ hasText: "long-hello.mp4" });
    await card.getByText("Waiting for signal").waitFor({ timeout: 30_000 });
    expect(await card.getByRole("button", { name: "Cancel" }).count()).toBe(1);
    await saveScreenshot(page, "uploads-offline-waiting-phone");

    await backOnline(context, cdp);
    await expect
      .poll(() => originalsOf(event), { timeout: 120_000 })
      .toEqual([{ name: "long-hello.mp4", by: "Ada", sha: await sha256File(clip) }]);
    expect(await page.getByText(OFFLINE).count()).toBe(0);
    // The same upload went on from the server's offset: the bytes sent twice are at most the chunk cut.
    expect(creations).toHaveLength(1);
    const sentTwice = proxy.patchBytes() - before - size;
    console.log(`offline mid-upload: ${size} bytes, ${sentTwice} sent twice (one chunk: ${FIRST_CHUNK_BYTES})`);
    expect(sentTwice).toBeGreaterThanOrEqual(0);
    expect(sentTwice).toBeLessThanOrEqual(FIRST_CHUNK_BYTES);
    await context.close();
  }, 300_000);

  test("the link opened once opens again with no connection, shows what is still to send, and sends it when the connection is back", async () => {
    const event = await createTestEvent(await createUser());
    const size = (await stat(clip)).size;
    const context = await e2e.browser.newContext({ baseURL: proxy.url, viewport: PHONE });
    context.setDefaultTimeout(30_000);
    const first = await newThrottledPage(context);
    await first.page.goto(`/e/${event.uuid}`);
    await first.page.waitForLoadState("networkidle");
    const before = proxy.patchBytes();
    await first.page.getByLabel("Your name").fill("Noor");
    await first.page.getByLabel("Photos and videos").setInputFiles(clip);
    await first.page.getByRole("button", { name: "Upload" }).click();
    await expect.poll(() => percentOf(first.page, "long-hello.mp4"), { timeout: 90_000, interval: 500 }).toBeGreaterThanOrEqual(30);
    // By now the worker keeps this page, and every build file the page loaded: nothing else.
    await expect
      .poll(() => offlineKeeping(first.page), { timeout: 30_000 })
      .toEqual({ caches: 2, pages: [`/e/${event.uuid}`], notKept: [] });

    // The signal goes and the page is closed; the link is opened again with no connection.
    await context.setOffline(true);
    await first.page.close();
    const again = await newThrottledPage(context);
    await again.cdp.send("Network.emulateNetworkConditions", { ...SLOW_LINK, offline: true });
    await again.page.goto(`/e/${event.uuid}`);
    expect(await again.page.locator("html[data-offline-copy]").count()).toBe(1);
    const note = again.page.locator(".offline-note");
    await note.getByText(OFFLINE).waitFor();
    expect(await note.textContent()).toContain("This is the copy of the page saved on your phone.");
    await again.page.getByText("Sending the file you picked earlier").waitFor();
    const card = again.page.locator(".upload-item").filter({ hasText: "long-hello.mp4" });
    await card.getByText("Waiting for signal").waitFor({ timeout: 30_000 });
    expect(await card.getByRole("button", { name: "Cancel" }).count()).toBe(1);
    // At 375 px nothing sticks out sideways.
    expect(await again.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(again.page, "uploads-offline-copy-phone");

    await backOnline(context, again.cdp);
    await expect
      .poll(() => originalsOf(event), { timeout: 120_000 })
      .toEqual([{ name: "long-hello.mp4", by: "Noor", sha: await sha256File(clip) }]);
    const sentTwice = proxy.patchBytes() - before - size;
    console.log(`offline reopen: ${size} bytes, ${sentTwice} sent twice (one chunk: ${FIRST_CHUNK_BYTES})`);
    expect(sentTwice).toBeGreaterThanOrEqual(0);
    expect(sentTwice).toBeLessThanOrEqual(FIRST_CHUNK_BYTES);
    await context.close();
  }, 300_000);

  test("only a contributor's page without a log-in may be kept, and the worker is never taken from a cache", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser);
    const context = await e2e.browser.newContext({ baseURL: e2e.server.url, viewport: PHONE });
    const page = await context.newPage();
    const worker = await page.request.get("/sw.js?v=1");
    expect(worker.status()).toBe(200);
    expect(worker.headers()["cache-control"]).toBe("no-cache");
    expect(worker.headers()["content-type"]).toMatch(/javascript/);

    const contributor = await page.request.get(`/e/${event.uuid}`);
    expect(contributor.headers()["chorus-offline-copy"]).toBe("contributor");
    expect(await contributor.text()).toContain("Add your photos and clips");
    await logInBrowser(page, organiser.email, PASSWORD);
    const organiserPage = await page.request.get(`/e/${event.uuid}`);
    expect(organiserPage.status()).toBe(200);
    expect(organiserPage.headers()["chorus-offline-copy"]).toBeUndefined();
    // Someone else logged in sees the contributor's page, with their own name in it: not kept either.
    await context.clearCookies();
    const other = await createUser();
    await logInBrowser(page, other.email, PASSWORD);
    const loggedInContributor = await page.request.get(`/e/${event.uuid}`);
    expect(await loggedInContributor.text()).toContain("Add your photos and clips");
    expect(loggedInContributor.headers()["chorus-offline-copy"]).toBeUndefined();
    await context.close();
  }, 60_000);
});
