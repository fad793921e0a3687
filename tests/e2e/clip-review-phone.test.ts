// A clip's advice on the contributor's card, and its default trim on the organiser's pages, at
// 375 px, with JavaScript and without (docs/decisions/053).
import crypto from "node:crypto";
import fs from "node:fs/promises";
import type { Event } from "drizzle/schema";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { findMediaById, insertMedia, listMediaOfEvent } from "~/models/media.server";
import { processMedia } from "~/services/media/media-processing.server";
import { storage } from "~/services/media/storage.server";
import { makeSceneClip } from "../media/support/clip-scenes";
import { makeTempDir } from "../media/support/media-fixtures";
import { createUser, PASSWORD } from "../support/accounts";
import { chromiumPath, collectPageErrors, gotoHydrated, logInBrowser, newPage, PHONE, saveScreenshot } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";

let dir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
let dark: string;
let padded: string;

beforeAll(async () => {
  if (!chromiumPath) return;
  dir = await makeTempDir("e2e-clip-review");
  dark = await makeSceneClip(dir.path("dark.mp4"), [{ seconds: 3, picture: "dark", sound: "speech" }]);
  const black = { seconds: 2, picture: "black", sound: "silence" } as const;
  padded = await makeSceneClip(dir.path("padded.mp4"), [black, { seconds: 4, picture: "pattern", sound: "speech" }, black]);
});
afterAll(() => dir?.remove());

/** A clip with dead air at both ends, processed as an upload is: it trims itself. */
async function trimmedClip(event: Event) {
  const local = dir!.path(`${crypto.randomUUID()}.mp4`);
  await fs.copyFile(padded, local);
  const key = `events/${event.id}/uploads/${crypto.randomUUID()}`;
  await storage().putFile(key, local, "video/mp4");
  const record = await insertMedia(db(), {
    eventId: event.id,
    purpose: "contribution",
    originalKey: key,
    originalName: "padded.mp4",
    mimeType: "video/mp4",
    sizeBytes: (await fs.stat(padded)).size,
    contributorName: "Cy",
    uploadId: `e2e-${crypto.randomUUID()}`,
  });
  await processMedia(record.id);
  return (await findMediaById(db(), record.id))!;
}

const trimOf = async (id: string) => {
  const row = (await findMediaById(db(), id))!;
  return { chosen: row.trimChosen, whole: row.trimStart === 0 && row.trimEnd === null };
};

/** Undoes the clip's own trim on its card, then brings it back from the arrange page's running order. */
async function undoAndRestore(page: Page, event: Event, id: string) {
  const card = page.locator(`#media-${id}`);
  await card.getByText("Trimmed by itself:").waitFor();
  await card.getByRole("button", { name: "Use the whole clip" }).click();
  await card.getByText("We suggested leaving out").waitFor();
  expect(await trimOf(id)).toEqual({ chosen: true, whole: true });
  await page.goto(`/e/${event.uuid}/arrange`);
  const order = page.locator(".preview-order");
  await order.getByText("We suggested leaving out").waitFor();
  await order.getByRole("button", { name: "Use the suggested trim" }).click();
  await order.getByText("Trimmed by itself:").waitFor();
  expect(await trimOf(id)).toEqual({ chosen: false, whole: false });
}

// Each test waits for real clips to be processed (the dead-air and advice passes, the rendition):
// 30–35 s of its 60 in a whole run on two cores.
describe.skipIf(!chromiumPath)("what processing noticed about a clip, on a phone", { timeout: 120_000 }, () => {
  const e2e = useServerAndBrowser({ JOB_POLL_SECONDS: "0.5" });

  test("a contributor whose clip came out dark reads so on its card, with Record again, and the clip is kept", async () => {
    const event = await createTestEvent(await createUser());
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const errors = collectPageErrors(page);
    await gotoHydrated(page, `/e/${event.uuid}`);
    await page.getByLabel("Your name").fill("Lea");
    await page.getByLabel("Photos and videos").setInputFiles([dark]);
    await page.getByRole("button", { name: "Upload" }).click();
    const advice = page.getByText("It's quite dark — want to record it again?");
    await advice.waitFor({ timeout: 90_000 });
    // Record again opens the camera (or the file picker) for a clip: a control of its own.
    const again = page.locator(".clip-advice input[type=file]");
    expect(await again.getAttribute("accept")).toBe("video/*");
    expect(await again.getAttribute("capture")).toBe("user");
    expect(await page.locator(".clip-advice").getByText("Record again").isVisible()).toBe(true);
    await saveScreenshot(page, "clip-advice-375");
    const media = await listMediaOfEvent(db(), event.id);
    expect(media.map((m) => [m.status, m.advice])).toEqual([["ready", ["dark"]]]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test("the organiser undoes a clip's own trim and brings it back, with JavaScript", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser);
    const clip = await trimmedClip(event);
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    const errors = collectPageErrors(page);
    await logInBrowser(page, organiser.email, PASSWORD);
    await gotoHydrated(page, `/e/${event.uuid}`);
    await saveScreenshot(page, "clip-trim-card-375");
    await undoAndRestore(page, event, clip.id);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test("and without JavaScript, with the plain forms", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser);
    const clip = await trimmedClip(event);
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE, javaScriptEnabled: false });
    await logInBrowser(page, organiser.email, PASSWORD);
    await page.goto(`/e/${event.uuid}`);
    await undoAndRestore(page, event, clip.id);
    await page.context().close();
  });
});
