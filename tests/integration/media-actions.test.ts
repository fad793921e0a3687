import crypto from "node:crypto";
import fs from "node:fs/promises";
import { mediaVersions, type Event, type Media } from "drizzle/schema";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { dropSingleton } from "~/lib/singleton.server";
import { hashToken } from "~/lib/tokens.server";
import { findMediaById, insertMedia, listMediaOfEvent, updateMedia } from "~/models/media.server";
import { processMedia } from "~/services/media/media-processing.server";
import { storage } from "~/services/media/storage.server";
import type { RunningServer } from "../../server";
import { makeClip, makeQuartersImage, makeTempDir } from "../media/support/media-fixtures";
import { createUser, loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let clipFile: string;

beforeAll(async () => {
  files = await makeTempDir("media-actions");
  // Storage is a process-wide singleton: point it at this file's own folder.
  dropSingleton("storage");
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5", DATA_DIR: files.path("data") });
  clipFile = await makeClip(files.path("clip.mp4"), { seconds: 2 });
});
afterAll(async () => {
  await server?.close();
  dropSingleton("storage");
  await files?.remove();
});

// Most tests here process real photos and clips as the job does (sharp, and ffmpeg for a clip's
// rendition and posters): a few seconds alone, 30 s and more on two cores shared with the rest of
// the suite.
const PROCESSING = { timeout: 120_000 };

const newToken = () => crypto.randomBytes(24).toString("base64url");
const anonymous = () => new TestClient(server.url);

const loggedIn = () => loggedInUser(server.url);

async function organiser() {
  const { user, client } = await loggedIn();
  return { user, client, event: await createTestEvent(user) };
}

interface MediaOptions {
  kind?: "photo" | "video";
  token?: string;
  uploaderId?: string;
  purpose?: Media["purpose"];
  width?: number;
  height?: number;
  contributorName?: string;
  ready?: boolean;
}

/** A media record with a real original in storage, processed unless `ready: false`. */
async function addMedia(
  event: Event,
  {
    kind = "photo",
    token,
    uploaderId,
    purpose = "contribution",
    width = 800,
    height = 600,
    contributorName = "Cy",
    ready = true,
  }: MediaOptions = {},
) {
  const local = files.path(`${crypto.randomUUID()}.${kind === "photo" ? "jpg" : "mp4"}`);
  if (kind === "photo") await makeQuartersImage(local, width, height);
  else await fs.copyFile(clipFile, local);
  const size = (await fs.stat(local)).size;
  const key = `events/${event.id}/uploads/${crypto.randomUUID()}`;
  await storage().putFile(key, local, kind === "photo" ? "image/jpeg" : "video/mp4");
  const record = await insertMedia(db(), {
    eventId: event.id,
    purpose,
    originalKey: key,
    originalName: kind === "photo" ? "photo.jpg" : "clip.mp4",
    mimeType: kind === "photo" ? "image/jpeg" : "video/mp4",
    sizeBytes: size,
    contributorName,
    caption: "Happy birthday!",
    uploadTokenHash: token ? hashToken(token) : null,
    uploaderId: uploaderId ?? null,
    uploadId: `test-${crypto.randomUUID()}`,
  });
  if (ready) await processMedia(record.id);
  return (await findMediaById(db(), record.id))!;
}

const row = async (id: string) => (await findMediaById(db(), id))!;
const withToken = (token: string) => ({ "x-upload-token": token });
const orderOf = async (event: Event) =>
  (await listMediaOfEvent(db(), event.id, { purpose: "contribution" })).map((m) => ({ id: m.id, position: m.position }));
const dimensionsOf = async (key: string) => {
  const copy = await storage().localCopy(key);
  try {
    const { width, height } = await sharp(copy.path).metadata();
    return { width, height };
  } finally {
    await copy.release();
  }
};

async function pageOf(response: Response) {
  return (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

describe("who may act on a media item", PROCESSING, () => {
  test("organiser, contributor with its token, wrong token, another user and anonymous", async () => {
    const { client, event } = await organiser();
    const token = newToken();
    const item = await addMedia(event, { token, ready: false });
    const path = `/api/v2/media/${item.id}`;

    const byOrganiser = await client.put(path, { caption: "From all of us", hidden: true });
    expect(byOrganiser.status).toBe(200);
    expect(byOrganiser.body).toMatchObject({ success: true, data: { caption: "From all of us", hidden: true } });

    const byContributor = await anonymous().json("PUT", path, { caption: "  Love you!  ", contributorName: "Cyrus" }, withToken(token));
    expect(byContributor.status).toBe(200);
    expect(byContributor.body.data).toMatchObject({ caption: "Love you!", contributorName: "Cyrus" });

    const arranging = await anonymous().json("PUT", path, { hidden: false }, withToken(token));
    expect(arranging.status).toBe(403);
    expect(arranging.body.error.code).toBe("FORBIDDEN");

    const wrongToken = await anonymous().json("PUT", path, { caption: "Mine now" }, withToken(newToken()));
    expect(wrongToken.status).toBe(404);
    const { client: stranger } = await loggedIn();
    expect((await stranger.put(path, { caption: "Mine now" })).status).toBe(404);
    expect((await stranger.delete(path)).status).toBe(404);
    const nobody = await anonymous().put(path, { caption: "Mine now" });
    expect(nobody.status).toBe(401);
    expect(nobody.body).toMatchObject({ success: false, error: { code: "UNAUTHORIZED" } });
    expect((await row(item.id)).caption).toBe("Love you!");

    expect((await client.put("/api/v2/media/not-a-uuid", { caption: "x" })).status).toBe(404);
    expect((await client.put(`/api/v2/media/${crypto.randomUUID()}`, { caption: "x" })).status).toBe(404);
    const invalid = await client.put(path, { caption: "x".repeat(2001), contributorName: 42 });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.error.fields)).toEqual(expect.arrayContaining(["caption", "contributorName"]));
    expect((await client.put(path, {})).status).toBe(400);
    const badJson = await client.raw("PUT", path, { body: "{nope", headers: { "content-type": "application/json" } });
    expect(badJson.status).toBe(400);

    // The contributor takes it back: archived, and gone for them from then on.
    const deleted = await anonymous().json("DELETE", path, undefined, withToken(token));
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.archived).toBe(true);
    expect((await row(item.id)).archivedAt).not.toBeNull();
    expect((await anonymous().json("PUT", path, { caption: "again" }, withToken(token))).status).toBe(404);
  });

  test("the account that uploaded an item may reword it without a token", async () => {
    const { event } = await organiser();
    const { user, client } = await loggedIn();
    const item = await addMedia(event, { uploaderId: user.id, ready: false });
    expect((await client.put(`/api/v2/media/${item.id}`, { caption: "Signed in" })).status).toBe(200);
    expect((await client.put(`/api/v2/media/${item.id}`, { position: 0 })).status).toBe(403);
  });

  test("the recipient deletes their own thank-you video with the private key, nothing else", async () => {
    const { event } = await organiser();
    const thanks = await addMedia(event, { purpose: "thank_you", ready: false });
    const contribution = await addMedia(event, { ready: false });
    const recipient = anonymous();
    expect((await recipient.delete(`/api/v2/media/${contribution.id}?v=${event.privateKey}`)).status).toBe(404);
    expect((await recipient.delete(`/api/v2/media/${thanks.id}?v=wrong-key`)).status).toBe(404);
    expect((await recipient.put(`/api/v2/media/${thanks.id}?v=${event.privateKey}`, { caption: "x" })).status).toBe(403);
    const deleted = await recipient.delete(`/api/v2/media/${thanks.id}?v=${event.privateKey}`);
    expect(deleted.status).toBe(200);
    expect((await row(thanks.id)).archivedAt).not.toBeNull();
    expect((await row(contribution.id)).archivedAt).toBeNull();
  });
});

describe("arranging the montage", PROCESSING, () => {
  test("moving an item renumbers the others without gaps; archive and restore keep it so", async () => {
    const { client, event } = await organiser();
    const [a, b, c, d] = [
      await addMedia(event, { ready: false }),
      await addMedia(event, { ready: false }),
      await addMedia(event, { ready: false }),
      await addMedia(event, { ready: false }),
    ];
    const moved = await client.put(`/api/v2/media/${d!.id}`, { position: 1 });
    expect(moved.status).toBe(200);
    expect(moved.body.data.position).toBe(1);
    expect(await orderOf(event)).toEqual([a, d, b, c].map((m, position) => ({ id: m!.id, position })));

    expect((await client.put(`/api/v2/media/${a!.id}`, { position: 99 })).status).toBe(200);
    expect(await orderOf(event)).toEqual([d, b, c, a].map((m, position) => ({ id: m!.id, position })));

    const negative = await client.put(`/api/v2/media/${a!.id}`, { position: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body.error.fields.position).toBeTruthy();
    expect((await client.put(`/api/v2/media/${a!.id}`, { position: 1.5 })).status).toBe(400);

    expect((await client.delete(`/api/v2/media/${b!.id}`)).status).toBe(200);
    expect(await orderOf(event)).toEqual([d, c, a].map((m, position) => ({ id: m!.id, position })));
    const restored = await client.put(`/api/v2/media/${b!.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ archived: false, position: 3 });
    expect(await orderOf(event)).toEqual([d, c, a, b].map((m, position) => ({ id: m!.id, position })));
    expect((await anonymous().json("PUT", `/api/v2/media/${b!.id}/restore`, {}, withToken(newToken()))).status).toBe(404);
  });

  test("trims a ready clip within its length, keeping at least a second", async () => {
    const { client, event } = await organiser();
    const token = newToken();
    const clip = await addMedia(event, { kind: "video", token });
    expect(clip.status).toBe("ready");
    const path = `/api/v2/media/${clip.id}`;
    const trimmed = await client.put(path, { trimStart: 0.5, trimEnd: 1.8 });
    expect(trimmed.status).toBe(200);
    expect(trimmed.body.data).toMatchObject({ trimStart: 0.5, trimEnd: 1.8 });

    const tooLong = await client.put(path, { trimEnd: 5 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.fields.trimEnd).toMatch(/only 2(\.\d)? s long/);
    const tooShort = await client.put(path, { trimStart: 1, trimEnd: 1.5 });
    expect(tooShort.body.error.fields.trimEnd).toBe("Keep at least 1 second of the clip.");
    expect((await client.put(path, { trimStart: 1.9 })).status).toBe(400);
    expect((await client.put(path, { trimEnd: null })).body.data).toMatchObject({ trimStart: 0.5, trimEnd: null });
    expect((await anonymous().json("PUT", path, { trimStart: 0 }, withToken(token))).status).toBe(403);

    const photo = await addMedia(event, { ready: false });
    const photoTrim = await client.put(`/api/v2/media/${photo.id}`, { trimStart: 1 });
    expect(photoTrim.status).toBe(400);
    expect(photoTrim.body.error.fields.trimStart).toBe("Only clips can be trimmed.");
  });
});

describe("claiming, duplicating and processing again", PROCESSING, () => {
  test("a contributor who signs up claims every item their token sent", async () => {
    const { event } = await organiser();
    const token = newToken();
    const first = await addMedia(event, { token, ready: false });
    const second = await addMedia(event, { token, ready: false });
    const other = await addMedia(event, { token: newToken(), ready: false });

    expect((await anonymous().json("PUT", `/api/v2/media/${first.id}/claim`, {}, withToken(token))).status).toBe(401);
    const { user, client } = await loggedIn();
    expect((await client.json("PUT", `/api/v2/media/${first.id}/claim`, {}, withToken(newToken()))).status).toBe(404);
    const claimed = await client.json("PUT", `/api/v2/media/${first.id}/claim`, {}, withToken(token));
    expect(claimed.status).toBe(200);
    expect(claimed.body.data.claimed).toBe(2);
    expect((await row(first.id)).uploaderId).toBe(user.id);
    expect((await row(second.id)).uploaderId).toBe(user.id);
    expect((await row(other.id)).uploaderId).toBeNull();
    // Now theirs by account: no token needed.
    expect((await client.put(`/api/v2/media/${second.id}`, { caption: "Claimed" })).status).toBe(200);

    const { client: someoneElse } = await loggedIn();
    const taken = await someoneElse.put(`/api/v2/media/${first.id}/claim`, { uploadToken: token });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("ALREADY_CLAIMED");
  });

  test("a duplicate shares the stored files and sits right after its source", async () => {
    const { client, event } = await organiser();
    const token = newToken();
    const first = await addMedia(event);
    const source = await addMedia(event, { token });
    const last = await addMedia(event, { ready: false });
    expect((await anonymous().json("POST", `/api/v2/media/${source.id}/duplicate`, {}, withToken(token))).status).toBe(403);

    const reply = await client.post(`/api/v2/media/${source.id}/duplicate`);
    expect(reply.status).toBe(201);
    const copy = await row(reply.body.data.id);
    expect(copy.id).not.toBe(source.id);
    expect(copy.duplicatedFrom).toBe(source.id);
    expect(copy.uploadId).toMatch(/^dup-/);
    expect(copy.caption).toBe(source.caption);
    expect(copy.originalKey).toBe(source.originalKey);
    expect(copy.renditionKey).toBe(source.renditionKey);
    expect(copy.thumbnails).toEqual(source.thumbnails);
    expect(await orderOf(event)).toEqual([first, source, copy, last].map((m, position) => ({ id: m.id, position })));
    // Each has its own caption from now on.
    await client.put(`/api/v2/media/${copy.id}`, { caption: "Second time" });
    expect((await row(source.id)).caption).toBe("Happy birthday!");
  });

  test("POST /v2/media processes a failed upload again, for the organiser only", async () => {
    const { client, event } = await organiser();
    const item = await addMedia(event, { ready: false });
    const notFailed = await client.post("/api/v2/media", { eventId: event.id, mediaId: item.id });
    expect(notFailed.status).toBe(409);
    await updateMedia(db(), item.id, { status: "failed", failureReason: "Test failure" });
    const { client: stranger } = await loggedIn();
    expect((await stranger.post("/api/v2/media", { eventId: event.id, mediaId: item.id })).status).toBe(403);
    expect((await client.post("/api/v2/media", { eventId: event.id, mediaId: "nope" })).status).toBe(400);
    const retried = await client.post("/api/v2/media", { eventId: event.id, mediaId: item.id });
    expect(retried.status).toBe(202);
    expect(retried.body.data).toMatchObject({ status: "uploaded", failureReason: null });
    await until(async () => (await row(item.id)).status === "ready", { what: "the photo to be processed again" });
  });
});

describe("photo versions", PROCESSING, () => {
  test("upscale, approve, then revert to the original", async () => {
    const { client, event } = await organiser();
    const photo = await addMedia(event, { width: 800, height: 600 });
    const before = await row(photo.id);

    const upscaled = await client.post(`/api/v2/media/${photo.id}/upscale`);
    expect(upscaled.status).toBe(201);
    const version = upscaled.body.data.version;
    expect(version).toMatchObject({ kind: "upscale", status: "pending_review", width: 1920, height: 1440 });
    const [stored] = await db().select().from(mediaVersions).where(eq(mediaVersions.id, version.id));
    expect(stored!.key).toBe(`events/${event.id}/media/${photo.mediaUuid}/versions/${version.id}.jpg`);
    expect(await dimensionsOf(stored!.key)).toEqual({ width: 1920, height: 1440 });
    expect((await row(photo.id)).renditionKey).toBe(before.renditionKey);

    const approved = await client.post(`/api/v2/media/${photo.id}/upscale-reviewed`, { approved: true });
    expect(approved.status).toBe(200);
    const after = await row(photo.id);
    expect(after).toMatchObject({ activeVersionId: version.id, approved: true, width: 1920, height: 1440, status: "ready" });
    expect(after.renditionKey).not.toBe(before.renditionKey);
    expect(await storage().stat(after.renditionKey!)).not.toBeNull();
    expect(after.thumbnails["thumb-640.webp"]).not.toBe(before.thumbnails["thumb-640.webp"]);

    expect((await client.post(`/api/v2/media/${photo.id}/upscale`)).status).toBe(409);

    const reverted = await client.post(`/api/v2/media/${photo.id}/revert`);
    expect(reverted.status).toBe(200);
    const original = await row(photo.id);
    expect(original).toMatchObject({ activeVersionId: null, width: 800, height: 600 });
    expect(original.renditionKey).not.toBe(after.renditionKey);
    const [replaced] = await db().select().from(mediaVersions).where(eq(mediaVersions.id, version.id));
    expect(replaced!.status).toBe("replaced");
  });

  test("a rejected upscale changes nothing but the approval; large photos and clips are refused", async () => {
    const { client, event } = await organiser();
    const photo = await addMedia(event, { width: 400, height: 300 });
    const upscaled = await client.post(`/api/v2/media/${photo.id}/upscale`);
    expect(upscaled.body.data.version).toMatchObject({ width: 1600, height: 1200 });
    expect((await client.post(`/api/v2/media/${photo.id}/upscale-reviewed`, { approved: "yes" })).status).toBe(400);
    const rejected = await client.post(`/api/v2/media/${photo.id}/upscale-reviewed`, { approved: false });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.version.status).toBe("rejected");
    expect(await row(photo.id)).toMatchObject({ approved: false, activeVersionId: null, renditionKey: photo.renditionKey, width: 400 });
    expect((await client.post(`/api/v2/media/${photo.id}/upscale-reviewed`, { approved: true })).status).toBe(409);

    const large = await addMedia(event, { width: 2000, height: 1000 });
    const refused = await client.post(`/api/v2/media/${large.id}/upscale`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain("already 2000×1000 pixels");
    const clip = await addMedia(event, { kind: "video", ready: false });
    expect((await client.post(`/api/v2/media/${clip.id}/upscale`)).body.error.code).toBe("NOT_A_PHOTO");
  });

  test("an edit is kept, then rendered from the original: crop and rotate", async () => {
    const { client, event } = await organiser();
    const token = newToken();
    const photo = await addMedia(event, { width: 800, height: 600, token });
    expect(
      (await anonymous().json("POST", `/api/v2/media/${photo.id}/pintura-edit`, { edits: { rotate: 90 } }, withToken(token))).status,
    ).toBe(403);

    const badCrop = await client.post(`/api/v2/media/${photo.id}/pintura-edit`, {
      edits: { crop: { left: 700, top: 0, width: 400, height: 300 } },
    });
    expect(badCrop.status).toBe(400);
    expect(badCrop.body.error.message).toContain("goes outside the photo (800×600)");
    expect((await client.post(`/api/v2/media/${photo.id}/pintura-edit`, { edits: { rotate: 45 } })).status).toBe(400);

    const saved = await client.post(`/api/v2/media/${photo.id}/pintura-edit`, {
      edits: { crop: { left: 0, top: 0, width: 400, height: 300 }, rotate: 90 },
    });
    expect(saved.status).toBe(201);
    expect(saved.body.data).toMatchObject({ kind: "edit", status: "pending_review", width: null });
    const rendered = await client.post(`/api/v2/media/${photo.id}/pintura-render`, {});
    expect(rendered.status).toBe(200);
    expect(rendered.body.data.version).toMatchObject({ id: saved.body.data.id, status: "active", width: 300, height: 400 });
    const edited = await row(photo.id);
    expect(edited).toMatchObject({ activeVersionId: saved.body.data.id, width: 300, height: 400 });
    const [version] = await db().select().from(mediaVersions).where(eq(mediaVersions.id, saved.body.data.id));
    expect(await dimensionsOf(version!.key)).toEqual({ width: 300, height: 400 });

    // A second edit starts again from the original, not from the rotated render.
    const second = await client.post(`/api/v2/media/${photo.id}/pintura-edit`, {
      edits: { crop: { left: 100, top: 100, width: 600, height: 400 } },
    });
    const again = await client.post(`/api/v2/media/${photo.id}/pintura-render`, { versionId: second.body.data.id });
    expect(again.body.data.version).toMatchObject({ width: 600, height: 400 });
    expect((await db().select().from(mediaVersions).where(eq(mediaVersions.id, saved.body.data.id)))[0]!.status).toBe("replaced");
    expect((await client.post(`/api/v2/media/${photo.id}/pintura-render`, {})).status).toBe(409);
    expect((await client.post(`/api/v2/media/${photo.id}/pintura-render`, { versionId: crypto.randomUUID() })).status).toBe(404);
  });

  test("regenerate rebuilds a photo's images at once and processes a clip again", async () => {
    const { client, event } = await organiser();
    const photo = await addMedia(event);
    const regenerated = await client.put(`/api/v2/media/${photo.id}/regenerate-image`);
    expect(regenerated.status).toBe(200);
    const rebuilt = await row(photo.id);
    expect(rebuilt.status).toBe("ready");
    expect(rebuilt.renditionKey).not.toBe(photo.renditionKey);
    expect(await storage().stat(rebuilt.renditionKey!)).not.toBeNull();

    const clip = await addMedia(event, { kind: "video" });
    const requeued = await client.put(`/api/v2/media/${clip.id}/regenerate-image`);
    expect(requeued.body.data.status).toBe("uploaded");
    await until(async () => (await row(clip.id)).status === "ready", { what: "the clip to be processed again" });
  });
});

describe("GET /api/uploads/{mediaUuid}", () => {
  test("the token holder and the organiser see the upload; anyone else is told it does not exist", async () => {
    const { client, event } = await organiser();
    const token = newToken();
    const item = await addMedia(event, { token });
    const path = `/api/uploads/${item.mediaUuid}`;
    const mine = await anonymous().get(path, withToken(token));
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ id: item.id, mediaUuid: item.mediaUuid, status: "ready" });
    expect(mine.body.data.thumbnailUrl).toMatch(/^\/media\//);
    expect((await client.get(path)).status).toBe(200);
    expect((await anonymous().get(path)).status).toBe(404);
    expect((await anonymous().get(path, withToken(newToken()))).status).toBe(404);
    const { client: stranger } = await loggedIn();
    expect((await stranger.get(path)).status).toBe(404);
    expect((await anonymous().get("/api/uploads/not-a-uuid", withToken(token))).status).toBe(404);
  });
});

describe("the organiser's contributions grid on /e/{uuid}", PROCESSING, () => {
  test("lists items with their statuses, and the plain forms move, hide and archive", async () => {
    const { client, event, user } = await organiser();
    const empty = await pageOf(await client.raw("GET", `/e/${event.uuid}`));
    expect(empty).toContain("No contributions yet. Share the link and they'll appear here as they arrive.");

    const ready = await addMedia(event, { contributorName: "Rita Ready" });
    const waiting = await addMedia(event, { contributorName: "Wes Waiting", ready: false });
    const broken = await addMedia(event, { contributorName: "Fay Failed", ready: false });
    await updateMedia(db(), broken.id, { status: "failed", failureReason: "This file is not a photo or video we can read." });
    const page = await pageOf(await client.raw("GET", `/e/${event.uuid}`));
    for (const text of [
      "Rita Ready",
      "Wes Waiting",
      "Fay Failed",
      "Ready",
      "Uploaded",
      "Failed: This file is not a photo or video we can read.",
      'loading="lazy"',
    ]) {
      expect(page).toContain(text);
    }
    expect(page.indexOf("Rita Ready")).toBeLessThan(page.indexOf("Wes Waiting"));

    const move = await client.form(`/e/${event.uuid}`, { intent: "media-move", mediaId: broken.id, position: "0" });
    expect(move.status).toBe(200);
    expect(await orderOf(event)).toEqual([broken, ready, waiting].map((m, position) => ({ id: m.id, position })));

    expect((await client.form(`/e/${event.uuid}`, { intent: "media-visibility", mediaId: ready.id, hidden: "true" })).status).toBe(200);
    expect((await row(ready.id)).hidden).toBe(true);
    expect(await pageOf(await client.raw("GET", `/e/${event.uuid}`))).toContain("Hidden");

    const archive = await client.form(`/e/${event.uuid}`, { intent: "media-archive", mediaId: waiting.id });
    expect(archive.status).toBe(200);
    expect((await row(waiting.id)).archivedAt).not.toBeNull();
    const afterArchive = await pageOf(await client.raw("GET", `/e/${event.uuid}`));
    expect(afterArchive).toContain("Archived (1)");
    expect(afterArchive).toContain("Restore");

    const badTrim = await client.form(`/e/${event.uuid}`, {
      intent: "media-edit",
      mediaId: ready.id,
      caption: "Hi",
      contributorName: "Rita",
      trimStart: "1",
    });
    expect(badTrim.status).toBe(400);
    expect(await pageOf(badTrim)).toContain("Only clips can be trimmed.");
    const edit = await client.form(`/e/${event.uuid}`, {
      intent: "media-edit",
      mediaId: ready.id,
      caption: "Best day",
      contributorName: "Rita R.",
    });
    expect(edit.status).toBe(200);
    expect(await row(ready.id)).toMatchObject({ caption: "Best day", contributorName: "Rita R." });

    // Not the organiser: refused, whatever the item.
    const { client: stranger } = await loggedIn();
    expect((await stranger.form(`/e/${event.uuid}`, { intent: "media-archive", mediaId: ready.id })).status).toBe(403);
    const otherEvent = await createTestEvent(user);
    const foreign = await addMedia(otherEvent, { ready: false });
    expect((await client.form(`/e/${event.uuid}`, { intent: "media-archive", mediaId: foreign.id })).status).toBe(404);
    expect((await row(foreign.id)).archivedAt).toBeNull();
  });
});

describe("processing that fails for a reason other than the file", PROCESSING, () => {
  test("is retried, and after the last attempt the item says it failed instead of processing for ever", async () => {
    const event = await createTestEvent(await createUser());
    const record = await addMedia(event, { ready: false });
    // The stored original disappears: our trouble, not the contributor's file.
    await storage().delete(record.originalKey);
    await expect(processMedia(record.id, { finalAttempt: false })).rejects.toThrow();
    expect((await row(record.id)).status).toBe("processing");
    await expect(processMedia(record.id, { finalAttempt: true })).rejects.toThrow();
    expect(await row(record.id)).toMatchObject({
      status: "failed",
      failureReason: "We could not prepare this file. The organiser can try it again.",
    });
  });
});
