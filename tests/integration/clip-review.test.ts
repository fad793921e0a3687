// A clip's default trim and advice (docs/decisions/053) through the real server: found when the
// clip is processed, reported by the media API, shown and changed on the organiser's pages with
// plain forms, and told to the contributor who sent it.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import type { Event } from "drizzle/schema";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { dropSingleton } from "~/lib/singleton.server";
import { hashToken } from "~/lib/tokens.server";
import { findMediaById, insertMedia, updateMedia } from "~/models/media.server";
import { processMedia } from "~/services/media/media-processing.server";
import { storage } from "~/services/media/storage.server";
import type { RunningServer } from "../../server";
import { makeSceneClip } from "../media/support/clip-scenes";
import { makeTempDir } from "../media/support/media-fixtures";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
/** 2 s of black silence, 4 s of someone speaking, 2 s of black silence. */
let padded: string;
/** Someone speaking in a room with the lights off. */
let dark: string;

beforeAll(async () => {
  files = await makeTempDir("clip-review-api");
  // Storage is a process-wide singleton: point it at this file's own folder.
  dropSingleton("storage");
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5", DATA_DIR: files.path("data") });
  const black = { picture: "black", sound: "silence" } as const;
  padded = await makeSceneClip(files.path("padded.mp4"), [
    { seconds: 2, ...black },
    { seconds: 4, picture: "pattern", sound: "speech" },
    { seconds: 2, ...black },
  ]);
  dark = await makeSceneClip(files.path("dark.mp4"), [{ seconds: 3, picture: "dark", sound: "speech" }]);
});
afterAll(async () => {
  await server?.close();
  dropSingleton("storage");
  await files?.remove();
});

/** A clip sent by a contributor (holding `token`), processed as the job does. */
async function addClip(event: Event, source: string, token = crypto.randomBytes(24).toString("base64url")) {
  const local = files.path(`${crypto.randomUUID()}.mp4`);
  await fs.copyFile(source, local);
  const key = `events/${event.id}/uploads/${crypto.randomUUID()}`;
  await storage().putFile(key, local, "video/mp4");
  const record = await insertMedia(db(), {
    eventId: event.id,
    purpose: "contribution",
    originalKey: key,
    originalName: "clip.mp4",
    mimeType: "video/mp4",
    sizeBytes: (await fs.stat(source)).size,
    contributorName: "Cy",
    uploadTokenHash: hashToken(token),
    uploadId: `test-${crypto.randomUUID()}`,
  });
  await processMedia(record.id);
  return { record: (await findMediaById(db(), record.id))!, token };
}

async function organiser() {
  const { user, client } = await loggedInUser(server.url);
  return { client, event: await createTestEvent(user) };
}

async function pageOf(response: Response) {
  return (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

// Each test processes real clips with ffmpeg as the job does (decode, the dead-air and advice
// passes, the rendition): ~10 s alone, 25 s and more on two cores shared with the rest of the suite.
const PROCESSING = { timeout: 120_000 };

describe("a clip's default trim", PROCESSING, () => {
  test("is found when it is processed, reported by the media API, widened by the organiser, and theirs stays", async () => {
    const { client, event } = await organiser();
    const { record, token } = await addClip(event, padded);
    const path = `/api/v2/media/${record.id}`;

    const found = await client.get(path);
    expect(found.status).toBe(200);
    const { defaultTrim } = found.body.data;
    expect(defaultTrim.trimStart).toBeGreaterThan(1.7);
    expect(defaultTrim.trimStart).toBeLessThanOrEqual(2);
    expect(defaultTrim.trimEnd).toBeGreaterThanOrEqual(6);
    expect(defaultTrim.trimEnd).toBeLessThan(6.4);
    expect(found.body.data).toMatchObject({ ...defaultTrim, trimChosen: false, advice: [], durationSeconds: expect.closeTo(8, 1) });
    // Its poster is a frame of what the video keeps, not of the black before it.
    const poster = await storage().localCopy(record.posterKey!);
    try {
      const { channels } = await sharp(poster.path).stats();
      expect(Math.max(...channels.map((c) => c.mean))).toBeGreaterThan(40);
    } finally {
      await poster.release();
    }

    // The organiser starts it earlier: their trim, kept when the clip is processed again.
    const widened = await client.put(path, { trimStart: 1 });
    expect(widened.status).toBe(200);
    expect(widened.body.data).toMatchObject({ trimStart: 1, trimEnd: defaultTrim.trimEnd, trimChosen: true, defaultTrim });
    await updateMedia(db(), record.id, { status: "uploaded" });
    await processMedia(record.id);
    expect((await client.get(path)).body.data).toMatchObject({ status: "ready", trimStart: 1, trimChosen: true, defaultTrim });

    // Back to the suggestion; both at once is refused, as is the contributor's asking.
    const both = await client.put(path, { useDefaultTrim: true, trimStart: 0 });
    expect(both.status).toBe(400);
    expect(both.body.error.fields).toHaveProperty("useDefaultTrim");
    const contributor = new TestClient(server.url);
    expect((await contributor.json("PUT", path, { useDefaultTrim: true }, { "x-upload-token": token })).status).toBe(403);
    const back = await client.put(path, { useDefaultTrim: true });
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ ...defaultTrim, trimChosen: false });

    // A caption saved with the trim the form showed is no choice of a trim.
    expect((await client.put(path, { caption: "Hello", trimStart: defaultTrim.trimStart, trimEnd: defaultTrim.trimEnd })).status).toBe(200);
    expect((await findMediaById(db(), record.id))!.trimChosen).toBe(false);
  });

  test("a clip with nothing to leave out keeps its whole length, and the API says none was needed", async () => {
    const { client, event } = await organiser();
    const { record } = await addClip(event, dark);
    expect((await client.get(`/api/v2/media/${record.id}`)).body.data).toMatchObject({
      trimStart: 0,
      trimEnd: null,
      defaultTrim: { trimStart: 0, trimEnd: null },
      trimChosen: false,
    });
  });

  test("is told on the organiser's card and in the arrange page's running order, and undone or restored with plain forms", async () => {
    const { client, event } = await organiser();
    const { record } = await addClip(event, padded);
    const card = await pageOf(await client.raw("GET", `/e/${event.uuid}`));
    expect(card).toMatch(/Trimmed by itself: [\d.]+ s at the start and [\d.]+ s at the end had nothing happening, so it is left out\./);
    expect(card).toContain("Use the whole clip");

    const whole = await client.form(`/e/${event.uuid}`, { intent: "media-trim", mediaId: record.id, trim: "whole" });
    expect(whole.status).toBe(200);
    expect(await findMediaById(db(), record.id)).toMatchObject({ trimStart: 0, trimEnd: null, trimChosen: true });
    const changed = await pageOf(await client.raw("GET", `/e/${event.uuid}`));
    expect(changed).toMatch(/We suggested leaving out [\d.]+ s at the start and [\d.]+ s at the end, where nothing happens\./);
    expect(changed).toContain("Use the suggested trim");

    const arrange = await pageOf(await client.raw("GET", `/e/${event.uuid}/arrange`));
    expect(arrange).toContain("We suggested leaving out");
    expect(arrange).toContain(`href="/e/${event.uuid}#media-${record.id}"`);
    const restored = await client.form(`/e/${event.uuid}/arrange`, { intent: "clip-trim", mediaId: record.id, trim: "default" });
    expect(restored.status).toBe(302);
    expect(restored.headers.get("location")).toBe(`/e/${event.uuid}/arrange#preview`);
    const row = (await findMediaById(db(), record.id))!;
    expect(row.trimChosen).toBe(false);
    expect(row.trimStart).toBeCloseTo(row.autoTrimStart!, 5);
    expect(await pageOf(await client.raw("GET", `/e/${event.uuid}/arrange`))).toContain("Trimmed by itself:");

    // Someone else's clip, through this Chorus's page: not found.
    const other = await organiser();
    const { record: foreign } = await addClip(other.event, dark);
    expect((await client.form(`/e/${event.uuid}/arrange`, { intent: "clip-trim", mediaId: foreign.id, trim: "whole" })).status).toBe(404);
  });
});

describe("advice about a clip", PROCESSING, () => {
  test("a dark clip is said to be, to the contributor who sent it and on the organiser's card, and is kept", async () => {
    const { client, event } = await organiser();
    const { record, token } = await addClip(event, dark);
    expect(record.status).toBe("ready");
    const contributor = new TestClient(server.url);
    const theirs = await contributor.get(`/api/uploads/${record.mediaUuid}`, { "x-upload-token": token });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toMatchObject({ kind: "video", status: "ready", advice: ["dark"] });
    // Nobody else hears of it.
    expect((await new TestClient(server.url).get(`/api/uploads/${record.mediaUuid}`)).status).toBe(404);
    expect(await pageOf(await client.raw("GET", `/e/${event.uuid}`))).toContain("Quite dark — Cy could record it again.");
  });
});
