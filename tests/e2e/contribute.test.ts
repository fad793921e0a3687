import { writeFile } from "node:fs/promises";
import type { Event } from "drizzle/schema";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { listMediaOfEvent } from "~/models/media.server";
import type { RunningServer } from "../../server";
import { makeClip, makeTempDir, makeTone } from "../media/support/media-fixtures";
import { createUser } from "../support/accounts";
import { chromiumPath, launchChromium, newPage, PHONE, saveScreenshot } from "../support/browser";
import { createTestEvent } from "../support/events";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let dir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
let photo: string;
let clip: string;

beforeAll(async () => {
  if (!chromiumPath) return;
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5" });
  browser = await launchChromium();
  dir = await makeTempDir("e2e-contribute");
  photo = dir.path("party.jpg");
  await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#3a7bd5" } })
    .jpeg()
    .toFile(photo);
  clip = dir.path("hello.mp4");
  await makeClip(clip, { width: 640, height: 360, seconds: 3 });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await dir?.remove();
});

async function statuses(event: Event) {
  return (await listMediaOfEvent(db(), event.id)).map((m) => m.status);
}

// Uploads over a throttled link, then waits for a clip to be processed: 32 s of its 60 in a whole
// run on two cores, with waits of up to 60 s inside.
describe.skipIf(!chromiumPath)("a contributor on a phone", { timeout: 120_000 }, () => {
  test("with JavaScript, on a slow mobile link: uploads a photo and a clip and sees progress", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(browser, server.url, { viewport: PHONE });
    // A slow 3G-like link: uploads of a few MB take seconds, so progress is visible.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 150,
      downloadThroughput: 200_000,
      uploadThroughput: 90_000,
    });
    await page.goto(`/e/${event.uuid}`);
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Your name").fill("Lea");
    await page.getByLabel("Photos and videos").setInputFiles([photo, clip]);
    await page.getByRole("button", { name: "Upload" }).click();

    const overall = page.getByRole("progressbar", { name: "Overall upload progress" });
    await overall.waitFor();
    await expect.poll(async () => Number(await overall.getAttribute("value")), { timeout: 30_000 }).toBeGreaterThan(0);
    await saveScreenshot(page, "contribute-progress-phone");
    await expect
      .poll(() => page.getByText("Uploaded ✓").or(page.getByText("Ready ✓")).or(page.getByText("Getting it ready…")).count(), {
        timeout: 60_000,
      })
      .toBe(2);
    await expect.poll(() => statuses(event), { timeout: 60_000 }).toEqual(["ready", "ready"]);
    const media = await listMediaOfEvent(db(), event.id);
    expect(media.map((m) => m.contributorName)).toEqual(["Lea", "Lea"]);
    expect(media.map((m) => m.kind).sort()).toEqual(["photo", "video"]);
    await page.context().close();
  });

  test("a text file renamed .mp4 and a voice memo are refused on their cards before a byte is sent", async () => {
    const event = await createTestEvent(await createUser());
    const notes = dir!.path("notes.mp4");
    await writeFile(notes, "These are my notes, not a video.\n".repeat(2000));
    const memo = await makeTone(dir!.path("memo.m4a"), 2);
    const page = await newPage(browser, server.url, { viewport: PHONE });
    const uploadRequests: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/uploads/tus")) uploadRequests.push(`${request.method()} ${request.url()}`);
    });
    await page.goto(`/e/${event.uuid}`);
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Photos and videos").setInputFiles([notes, memo, photo]);
    await page.getByRole("button", { name: "Upload" }).click();

    const card = (name: string) => page.locator(".upload-item").filter({ hasText: name });
    await expect.poll(() => card("notes.mp4").textContent()).toContain("This doesn't look like a photo or a video.");
    expect(await card("notes.mp4").textContent()).toContain("Not sent");
    await expect.poll(() => card("memo.m4a").textContent()).toContain("This is a sound file.");
    // The photo beside them goes up as usual, and it is the only file that does.
    await expect.poll(() => statuses(event), { timeout: 60_000 }).toEqual(["ready"]);
    await saveScreenshot(page, "contribute-refused-by-first-bytes");
    expect(uploadRequests.filter((r) => r.startsWith("POST"))).toHaveLength(1);
    expect((await listMediaOfEvent(db(), event.id)).map((m) => m.originalName)).toEqual(["party.jpg"]);
    await page.context().close();
  });

  test("without JavaScript: the plain form uploads a photo and a clip", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(browser, server.url, { viewport: PHONE, javaScriptEnabled: false });
    await page.goto(`/e/${event.uuid}`);
    await page.getByLabel("Your name").fill("Sam");
    await page.getByLabel("A message (optional)").fill("Happy birthday!");
    await page.getByLabel("Photos and videos").setInputFiles([photo, clip]);
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Upload" }).click()]);
    expect(new URL(page.url()).pathname).toBe(`/e/${event.uuid}`);
    // Without JavaScript the toast is the server's <noscript> copy.
    expect(await page.locator(".toasts").first().innerHTML()).toContain("Your 2 files arrived");
    await expect.poll(() => statuses(event), { timeout: 60_000 }).toEqual(["ready", "ready"]);
    const media = await listMediaOfEvent(db(), event.id);
    expect(media.every((m) => m.contributorName === "Sam" && m.caption === "Happy birthday!")).toBe(true);
    await page.context().close();
  });
});
