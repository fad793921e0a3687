import { copyFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { runFfmpeg } from "~/media/run.server";
import { findArrangement } from "~/models/arrangement.server";
import { findTrackBySlug, insertTrack, updateTrack } from "~/models/track.server";
import { roomOfUser } from "~/realtime/events";
import { realtime } from "~/realtime/server.server";
import { processTrack } from "~/services/arrange/tracks.server";
import { storage } from "~/services/media/storage.server";
import type { RunningServer } from "../../server";
import { makeTempDir } from "../media/support/media-fixtures";
import { PASSWORD, createUser } from "../support/accounts";
import { chromiumPath, launchChromium, logInBrowser, newPage, PHONE, saveScreenshot } from "../support/browser";
import { createTestEvent } from "../support/events";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let dir: Awaited<ReturnType<typeof makeTempDir>> | undefined;

beforeAll(async () => {
  if (!chromiumPath) return;
  dir = await makeTempDir("e2e-music");
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5", DATA_DIR: dir.path("data") });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await dir?.remove();
});

async function builtInsReady() {
  await expect.poll(async () => (await findTrackBySlug(db(), "warm-sunday"))?.status, { timeout: 60_000 }).toBe("ready");
}

describe.skipIf(!chromiumPath)("an organiser choosing the music on a phone", () => {
  test("without JavaScript: chooses a track, then sets where it starts, on a 375px screen", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser);
    await builtInsReady();
    const page = await newPage(browser, server.url, { viewport: PHONE, javaScriptEnabled: false });
    await logInBrowser(page, organiser.email, PASSWORD);
    await page.goto(`/e/${event.uuid}/arrange#music`);

    const warmSunday = page.locator(".arrange-music__track", { hasText: "Warm Sunday" });
    await expect.poll(() => warmSunday.locator("svg.track-waveform rect").count()).toBe(100);
    await warmSunday.getByRole("button", { name: "Use this track" }).click();
    await expect.poll(() => warmSunday.getByText("Chosen").count()).toBe(1);

    await page.getByLabel("Start at (seconds)").fill("20");
    await page.getByLabel("Volume (%)").fill("120");
    await page.getByRole("button", { name: "Save music settings" }).click();
    await expect.poll(() => page.getByText("The volume goes from 0 to 100 %.").count()).toBe(1);
    await page.getByLabel("Start at (seconds)").fill("20");
    await page.getByLabel("Volume (%)").fill("70");
    await page.getByRole("button", { name: "Save music settings" }).click();
    await expect.poll(async () => (await findArrangement(db(), event.id)).musicVolume).toBe(0.7);
    expect((await findArrangement(db(), event.id)).musicStartSeconds).toBe(20);
    // The start is marked on the waveform.
    await expect.poll(() => warmSunday.locator(".track-waveform__start").count()).toBe(1);
    expect(await warmSunday.locator("svg.track-waveform").getAttribute("aria-label")).toBe(
      "Waveform of Warm Sunday; the music starts at 0:20",
    );

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, "arrange-music-phone-no-js");
  });

  test("with JavaScript: an upload being prepared turns ready on the page without a reload", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser);
    await builtInsReady();
    const tone = dir!.path("tone.m4a");
    await runFfmpeg(["-hide_banner", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=523:duration=4", "-c:a", "aac", tone]);
    const copy = dir!.path("tone-copy.m4a");
    await copyFile(tone, copy);
    const track = await insertTrack(db(), {
      ownerId: organiser.id,
      title: "Our first dance",
      originalName: "dance.m4a",
      sizeBytes: 1000,
      originalKey: "tracks/e2e-dance/original",
    });
    await storage().putFile(track.originalKey!, copy, "audio/mp4");
    await updateTrack(db(), track.id, { status: "processing" });

    const page = await newPage(browser, server.url, { viewport: PHONE });
    await logInBrowser(page, organiser.email, PASSWORD);
    await page.goto(`/e/${event.uuid}/arrange#music`);
    const item = page.locator(".arrange-music__track", { hasText: "Our first dance" });
    await expect.poll(() => item.getByText("Preparing…").count()).toBe(1);
    // The page's socket has joined the organiser's room: what happens next reaches it.
    await expect
      .poll(async () => (await realtime()!.of("/users").in(roomOfUser(organiser.id)).fetchSockets()).length, { timeout: 10_000 })
      .toBeGreaterThan(0);

    await processTrack(track.id);
    await expect.poll(() => item.getByRole("button", { name: "Use this track" }).count(), { timeout: 10_000 }).toBe(1);
    expect(await item.locator("svg.track-waveform").count()).toBe(1);
    await saveScreenshot(page, "arrange-music-phone-live");
  });
});
