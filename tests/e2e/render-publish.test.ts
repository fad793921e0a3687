import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { dropSingleton } from "~/lib/singleton.server";
import { findArrangement } from "~/models/arrangement.server";
import { findEventById, setEventPaid } from "~/models/event.server";
import { findTrackBySlug } from "~/models/track.server";
import type { RunningServer } from "../../server";
import { makeTempDir } from "../media/support/media-fixtures";
import { PASSWORD, createUser } from "../support/accounts";
import { chromiumPath, collectPageErrors, launchChromium, logInBrowser, newPage, PHONE, saveScreenshot } from "../support/browser";
import { createTestEvent } from "../support/events";
import { addReadyMedia } from "../support/ready-media";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let dir: Awaited<ReturnType<typeof makeTempDir>> | undefined;

beforeAll(async () => {
  if (!chromiumPath) return;
  dir = await makeTempDir("e2e-render");
  dropSingleton("storage");
  server = await startTestServer({
    JOB_POLL_SECONDS: "0.5",
    DATA_DIR: dir.path("data"),
    RENDER_PHOTO_SECONDS: "2",
    RENDER_TITLE_SECONDS: "1.5",
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  dropSingleton("storage");
  await dir?.remove();
});

describe.skipIf(!chromiumPath)("making the video and watching it", { timeout: 240_000 }, () => {
  test("the organiser arranges, previews, renders with progress and publishes; paid for, the recipient plays it on a phone", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser, { occasion: "birthday" });
    await addReadyMedia(event, "video", dir!, { name: "Ana", caption: "Happy birthday, Sam!" });
    await addReadyMedia(event, "photo", dir!, { name: "Bo", caption: "Remember the lake?" });
    await expect.poll(async () => (await findTrackBySlug(db(), "warm-sunday"))?.status, { timeout: 60_000 }).toBe("ready");

    const page = await newPage(browser, server.url);
    const errors = collectPageErrors(page);
    await logInBrowser(page, organiser.email, PASSWORD);
    await page.goto(`/e/${event.uuid}`);
    await page.getByRole("link", { name: "Make the video" }).click();
    await page.waitForURL(`**/e/${event.uuid}/arrange`);
    await page.waitForLoadState("networkidle");

    // Arrange: a theme and a track.
    await page.locator(".theme-card", { hasText: "Midnight" }).click();
    await page.getByRole("button", { name: "Use this theme" }).click();
    await expect.poll(async () => (await findArrangement(db(), event.id)).themeId).not.toBeNull();
    await page.locator(".arrange-music__track", { hasText: "Warm Sunday" }).getByRole("button", { name: "Use this track" }).click();
    await expect.poll(async () => (await findArrangement(db(), event.id)).trackId).not.toBeNull();
    await page.waitForLoadState("networkidle");

    // Preview: plays at once, scene after scene, with the contributor's words on top.
    await page.getByRole("button", { name: /Play preview/ }).click();
    await expect.poll(() => page.locator(".preview-controls [role=status]").textContent(), { timeout: 10_000 }).toMatch(/Scene 2 of 4/);
    await expect.poll(() => page.locator(".preview-scene--active .preview-textbox").textContent()).toContain("Happy birthday, Sam!");
    // Music that ends before the scenes do starts again from its start point, as in the video.
    const { musicStartSeconds } = await findArrangement(db(), event.id);
    const music = page.locator("#preview audio");
    await music.evaluate((audio: HTMLAudioElement) => {
      audio.currentTime = 60;
      audio.dispatchEvent(new Event("ended"));
    });
    expect(await music.evaluate((audio: HTMLAudioElement) => audio.currentTime)).toBeLessThan(musicStartSeconds + 5);
    await page.getByRole("button", { name: "Stop" }).click();

    // Render and publish, with the progress shown while it works.
    await page.getByLabel(/HD 720p/).check();
    await page.getByRole("button", { name: "Render the video" }).click();
    await expect.poll(() => page.locator(".render-progress").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator(".render-progress progress").count()).toBe(1);
    await saveScreenshot(page, "arrange-rendering");
    // Done and published: the page updates itself and lists version 1 as the one the recipient sees.
    await expect.poll(() => page.locator(".render-version--current").count(), { timeout: 180_000 }).toBe(1);
    expect(await page.locator(".render-version--current").innerText()).toMatch(/Version 1 · 720p.*on the recipient's link/);
    expect(errors).toEqual([]);
    const published = (await findEventById(db(), event.id))!;
    expect(published.publishedMedia).not.toBeNull();

    // Paid for, as after checkout: before that the recipient's link shows none of the video
    // (docs/decisions/045, tests/e2e/video-before-payment.test.ts).
    await setEventPaid(db(), event.id, true);
    // The recipient, on a phone: the video loads by ranges and plays.
    const phone = await newPage(browser, server.url, { viewport: PHONE });
    const ranges: number[] = [];
    phone.on("response", (response) => {
      if (response.url().includes("/videos/") && response.url().includes("/video?")) ranges.push(response.status());
    });
    await phone.goto(`/e/${event.uuid}?privateKey=${event.privateKey}`);
    const video = phone.locator(".event-video video");
    await expect.poll(() => video.count()).toBe(1);
    expect(await video.getAttribute("preload")).toBe("metadata");
    expect(await video.getAttribute("poster")).toMatch(/^\/videos\//);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(await video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBeGreaterThan(3);
    await video.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      // Once the video's HLS ladder is made, play hands the element to the streaming player, which
      // interrupts this first play() and plays again itself (docs/decisions/036).
      return v.play().catch(() => {});
    });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.3);
    expect(ranges).toContain(206);
    // The player fits the phone: nothing wider than the screen, its box reserved before it loads.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await phone.getByText("Ana").count()).toBeGreaterThan(0);
    await saveScreenshot(phone, "recipient-video-phone");
  });
});
