import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { publishVersion } from "~/models/published-media.server";
import { storage } from "~/services/media/storage.server";
import { makeClip, makeTempDir } from "../media/support/media-fixtures";
import { loggedInUser, PASSWORD } from "../support/accounts";
import { chromiumPath, collectPageErrors, gotoHydrated, logInBrowser, newPage, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";
import { payThroughLocalService } from "../support/payments";

// The recipient's link of a Chorus published but not paid for yet, on a phone: it says the video
// is on its way and carries none of it; once the organiser pays, the same link plays it
// (docs/decisions/045).

let dir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
beforeAll(async () => {
  if (chromiumPath) dir = await makeTempDir("e2e-before-payment");
});
afterAll(async () => {
  await dir?.remove();
});

/** A published version of `eventId`: a 4 s clip and its poster, as a render leaves them. */
async function publish(eventId: string) {
  const clip = await makeClip(dir!.path(`${eventId}.mp4`), { width: 640, height: 360, seconds: 4, faststart: true });
  const videoKey = `events/${eventId}/renders/fixture/video.mp4`;
  const posterKey = `events/${eventId}/renders/fixture/poster.jpg`;
  const stored = await storage().putFile(videoKey, clip, "video/mp4");
  const poster = dir!.path(`${eventId}.jpg`);
  await sharp({ create: { width: 640, height: 360, channels: 3, background: "#c04080" } })
    .jpeg()
    .toFile(poster);
  await storage().putFile(posterKey, poster, "image/jpeg");
  await publishVersion(db(), {
    eventId,
    renderJobId: null,
    videoKey,
    posterKey,
    durationSeconds: 4,
    width: 640,
    height: 360,
    sizeBytes: stored.size,
    publishedById: null,
  });
}

describe.skipIf(!chromiumPath)("the recipient's link before and after payment, on a phone", { timeout: 90_000 }, () => {
  const e2e = useServerAndBrowser({ JOB_POLL_SECONDS: "0.5" });

  test("unpaid, it says the video is on its way with no player and no poster, while its organiser watches it; paid, the same link plays it", async () => {
    const organiser = await loggedInUser(e2e.server.url);
    const event = await createTestEvent(organiser.user, { occasion: "birthday" });
    await publish(event.id);
    const recipientPath = `/e/${event.uuid}?privateKey=${event.privateKey}`;

    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const errors = collectPageErrors(page);
    const videoRequests: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/videos/")) videoRequests.push(request.url());
    });
    await gotoHydrated(page, recipientPath);
    await page.getByRole("heading", { name: "Your video is on its way" }).waitFor();
    expect(await page.locator("video").count()).toBe(0);
    expect(await page.locator("[poster], img[src*='/videos/'], a[href*='/videos/']").count()).toBe(0);
    expect(await page.content()).not.toContain("/videos/");
    expect(videoRequests).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, "recipient-before-payment-phone");

    // The organiser watches it on their own page, where the two links say what paying opens.
    const own = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    await logInBrowser(own, organiser.user.email, PASSWORD);
    await gotoHydrated(own, `/e/${event.uuid}#share`);
    const note = own.locator("#links-locked");
    await note.waitFor();
    expect(await note.textContent()).toContain("play the video once you pay for this Chorus");
    expect(await note.getByRole("link", { name: "Go to checkout" }).getAttribute("href")).toBe(`/e/${event.uuid}/checkout`);
    expect(await own.locator("#video video").getAttribute("src")).toMatch(/^\/videos\/[0-9a-f-]+\/video\?exp=/);
    expect(await own.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(own, "organiser-before-payment-phone");
    await own.context().close();

    await payThroughLocalService(organiser.client, event);

    await gotoHydrated(page, recipientPath);
    const video = page.locator(".event-video video");
    await expect.poll(() => video.count()).toBe(1);
    expect(await video.getAttribute("poster")).toMatch(/^\/videos\/[0-9a-f-]+\/poster\?exp=/);
    expect(await page.getByText("Your video is on its way").count()).toBe(0);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await video.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play();
    });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.3);
    expect(await page.getByRole("link", { name: "Download the video" }).count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, "recipient-after-payment-phone");
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
