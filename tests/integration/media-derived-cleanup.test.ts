import crypto from "node:crypto";
import { renderJobs, type Event, type Media } from "drizzle/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { dropSingleton } from "~/lib/singleton.server";
import { findMediaById, insertMedia, updateMedia } from "~/models/media.server";
import { processMedia } from "~/services/media/media-processing.server";
import { storage } from "~/services/media/storage.server";
import type { RunningServer } from "../../server";
import { makeQuartersImage, makeTempDir } from "../media/support/media-fixtures";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import type { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

// A rebuild (regenerate, an approved upscale, an edit, a revert, processing again) writes a
// photo's rendition, poster and thumbnails to fresh keys. The files they replace are deleted,
// unless something still points at them.

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;

beforeAll(async () => {
  files = await makeTempDir("derived-cleanup");
  dropSingleton("storage");
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5", DATA_DIR: files.path("data") });
});
afterAll(async () => {
  await server?.close();
  dropSingleton("storage");
  await files?.remove();
});

async function organiser() {
  const { client, user } = await loggedInUser(server.url);
  return { client, event: await createTestEvent(user) };
}

/** A processed photo with its original in storage. */
async function addPhoto(event: Event) {
  const local = files.path(`${crypto.randomUUID()}.jpg`);
  await makeQuartersImage(local, 800, 600);
  const key = `events/${event.id}/uploads/${crypto.randomUUID()}`;
  const { size } = await storage().putFile(key, local, "image/jpeg");
  const record = await insertMedia(db(), {
    eventId: event.id,
    purpose: "contribution",
    originalKey: key,
    originalName: "photo.jpg",
    mimeType: "image/jpeg",
    sizeBytes: size,
    uploadId: `test-${crypto.randomUUID()}`,
  });
  await processMedia(record.id);
  return row(record.id);
}

const row = async (id: string) => (await findMediaById(db(), id))!;
const derivedKeys = (item: Media) => [item.renditionKey!, item.posterKey!, ...Object.values(item.thumbnails)];
const stored = async (keys: string[]) => Promise.all(keys.map(async (key) => (await storage().stat(key)) !== null));
const allStored = async (keys: string[]) => (await stored(keys)).every(Boolean);
const noneStored = async (keys: string[]) => (await stored(keys)).every((present) => !present);

async function regenerate(client: TestClient, item: Media) {
  const reply = await client.put(`/api/v2/media/${item.id}/regenerate-image`);
  expect(reply.status).toBe(200);
  return row(item.id);
}

describe("files replaced by a rebuild", () => {
  test("regenerating a photo deletes its previous rendition, poster and thumbnails, never the original", async () => {
    const { client, event } = await organiser();
    const photo = await addPhoto(event);
    const before = derivedKeys(photo);
    expect(before.length).toBeGreaterThan(2);
    expect(await allStored(before)).toBe(true);

    const rebuilt = await regenerate(client, photo);

    const after = derivedKeys(rebuilt);
    expect(after.filter((key) => before.includes(key))).toEqual([]);
    expect(await allStored(after)).toBe(true);
    expect(await noneStored(before)).toBe(true);
    expect(await storage().stat(photo.originalKey)).not.toBeNull();
  });

  test("files a duplicate still shows are kept until the duplicate moves on too", async () => {
    const { client, event } = await organiser();
    const photo = await addPhoto(event);
    const duplicated = await client.post(`/api/v2/media/${photo.id}/duplicate`);
    expect(duplicated.status).toBe(201);
    const copy = await row(duplicated.body.data.id);
    const shared = derivedKeys(photo);
    expect(derivedKeys(copy)).toEqual(shared);

    await regenerate(client, photo);
    expect(await allStored(shared)).toBe(true);

    await regenerate(client, copy);
    expect(await noneStored(shared)).toBe(true);
    expect(await storage().stat(photo.originalKey)).not.toBeNull();
  });

  test("an approved upscale and a revert each delete the images they replace; the version file stays", async () => {
    const { client, event } = await organiser();
    const photo = await addPhoto(event);
    const fromOriginal = derivedKeys(photo);

    const upscaled = await client.post(`/api/v2/media/${photo.id}/upscale`);
    expect(upscaled.status).toBe(201);
    expect((await client.post(`/api/v2/media/${photo.id}/upscale-reviewed`, { approved: true })).status).toBe(200);
    const approved = await row(photo.id);
    const fromUpscale = derivedKeys(approved);
    expect(await noneStored(fromOriginal)).toBe(true);
    expect(await allStored(fromUpscale)).toBe(true);

    expect((await client.post(`/api/v2/media/${photo.id}/revert`)).status).toBe(200);
    const reverted = await row(photo.id);
    expect(reverted.activeVersionId).toBeNull();
    expect(await noneStored(fromUpscale)).toBe(true);
    expect(await allStored(derivedKeys(reverted))).toBe(true);
    // The replaced version keeps its file (it can be looked at again), and the original is untouched.
    const versionKey = `events/${event.id}/media/${photo.mediaUuid}/versions/${upscaled.body.data.version.id}.jpg`;
    expect(await storage().stat(versionKey)).toMatchObject({ contentType: "image/jpeg" });
    expect(await storage().stat(photo.originalKey)).not.toBeNull();
  });

  test("a rendition that a render still waiting to run uses is kept", async () => {
    const { client, event } = await organiser();
    const photo = await addPhoto(event);
    await db()
      .insert(renderJobs)
      .values({ eventId: event.id, status: "queued", plan: { segments: [{ kind: "photo", source: photo.renditionKey }] } });

    await regenerate(client, photo);

    expect(await allStored([photo.renditionKey!])).toBe(true);
    expect(await noneStored(Object.values(photo.thumbnails))).toBe(true);
  });

  test("processing a photo again deletes what the last rebuild made", async () => {
    const { client, event } = await organiser();
    const photo = await regenerate(client, await addPhoto(event));
    const rebuilt = derivedKeys(photo);

    await updateMedia(db(), photo.id, { status: "uploaded" });
    await processMedia(photo.id);

    const processed = await row(photo.id);
    expect(processed.status).toBe("ready");
    expect(await allStored(derivedKeys(processed))).toBe(true);
    expect(await noneStored(rebuilt)).toBe(true);
  });
});
