import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Event, Media } from "drizzle/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { findMediaByUuid } from "~/models/media.server";
import { storage } from "~/services/media/storage.server";
import { expireUploads, uploadStagingDir } from "~/services/uploads/upload-expiry.server";
import type { RunningServer } from "../../server";
import { createUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { makePhoto, makeTempDir, mp4LikeBytes } from "../support/media-fixtures";
import { startTestServer } from "../support/test-server";
import { TusRequestError, create, head, patch, uploadFile, uploaderHeaders } from "../support/tus-client";
import { until } from "../support/wait";

const HOUR = 60 * 60 * 1000;

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let event: Event;

beforeAll(async () => {
  files = await makeTempDir("upload-expiry");
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5", DATA_DIR: files.path("data"), UPLOAD_EXPIRY_HOURS: "48" });
  event = await createTestEvent(await createUser());
});
afterAll(async () => {
  await server?.close();
  await files?.remove();
});

const metadata = (filename: string, filetype: string) => ({
  eventUuid: event.uuid,
  filename,
  filetype,
  contributorName: "Cyrus",
  caption: "",
  purpose: "contribution",
  uploadToken: crypto.randomBytes(24).toString("base64url"),
});

const idOf = (uploadPath: string) => path.basename(uploadPath);
const dataFile = (uploadPath: string) => path.join(uploadStagingDir(), idOf(uploadPath));
const infoFile = (uploadPath: string) => `${dataFile(uploadPath)}.json`;
const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/** Half of a 2,000-byte clip, sent and then left. */
async function startUpload() {
  const uploadPath = await create(server.url, 2000, metadata("clip.mp4", "video/mp4"));
  await patch(server.url, uploadPath, 0, mp4LikeBytes(1000));
  return uploadPath;
}

/** Moves an upload's creation back by `hours`; `lastChunk` too unless told otherwise. */
async function age(uploadPath: string, hours: number, { lastChunk = true } = {}) {
  const then = new Date(Date.now() - hours * HOUR);
  const info = JSON.parse(await fs.readFile(infoFile(uploadPath), "utf8"));
  await fs.writeFile(infoFile(uploadPath), JSON.stringify({ ...info, creation_date: then.toISOString() }));
  if (lastChunk) await fs.utimes(dataFile(uploadPath), then, then);
}

async function headStatus(uploadPath: string) {
  try {
    await head(server.url, uploadPath);
    return 200;
  } catch (error) {
    if (error instanceof TusRequestError) return error.status;
    throw error;
  }
}

async function settled(mediaUuid: string): Promise<Media> {
  return until(
    async () => {
      const record = await findMediaByUuid(db(), mediaUuid);
      return record?.status === "ready" || record?.status === "failed" ? record : null;
    },
    { what: `media ${mediaUuid} to settle` },
  );
}

describe("the uploads-expire sweep", () => {
  test("an upload left for longer than UPLOAD_EXPIRY_HOURS is removed; a fresh one stays", async () => {
    const left = await startUpload();
    const fresh = await startUpload();
    await age(left, 49);
    await age(fresh, 47);

    await expireUploads();

    expect(await exists(dataFile(left))).toBe(false);
    expect(await exists(infoFile(left))).toBe(false);
    expect(await headStatus(left)).toBe(404);
    expect(await exists(dataFile(fresh))).toBe(true);
    expect(await head(server.url, fresh)).toBe(1000);
    // The fresh one can still be finished.
    expect((await patch(server.url, fresh, 1000, crypto.randomBytes(1000))).offset).toBe(2000);
  });

  test("expiry counts from the last chunk: an old upload still being sent is kept and can go on", async () => {
    const slow = await startUpload();
    await age(slow, 60, { lastChunk: false });

    await expireUploads();

    expect(await exists(dataFile(slow))).toBe(true);
    expect(await head(server.url, slow)).toBe(1000);
    expect((await patch(server.url, slow, 1000, crypto.randomBytes(500))).offset).toBe(1500);
  });

  test("a finished upload is never touched: its file is the stored original", async () => {
    const photo = await makePhoto(files.path("photo.jpg"), { width: 320, height: 240 });
    const sent = await uploadFile(server.url, photo, metadata("photo.jpg", "image/jpeg"), { chunkSize: 4096 });
    const record = await settled(sent.mediaUuid!);
    await age(sent.path, 24 * 30);

    await expireUploads();

    expect(await exists(dataFile(sent.path))).toBe(true);
    expect(await storage().stat(record.originalKey)).toMatchObject({ size: (await fs.stat(photo)).size, contentType: "image/jpeg" });
    expect((await findMediaByUuid(db(), sent.mediaUuid!))!.status).toBe("ready");
  });

  test("the info an upload moved to S3 left behind is removed once old enough", async () => {
    const write = (id: string, hours: number) =>
      fs.writeFile(
        path.join(uploadStagingDir(), `${id}.json`),
        JSON.stringify({ id, size: 10, offset: 0, metadata: {}, creation_date: new Date(Date.now() - hours * HOUR).toISOString() }),
      );
    const old = crypto.randomBytes(16).toString("hex");
    const recent = crypto.randomBytes(16).toString("hex");
    await write(old, 49);
    await write(recent, 1);

    await expireUploads();

    expect(await exists(path.join(uploadStagingDir(), `${old}.json`))).toBe(false);
    expect(await exists(path.join(uploadStagingDir(), `${recent}.json`))).toBe(true);
  });

  test("the browser is told when an upload would expire, counted from its last chunk", async () => {
    const uploadPath = await create(server.url, 2000, metadata("clip.mp4", "video/mp4"));
    // Started 40 hours ago, and sent to just now: 48 hours from now, not 8.
    await age(uploadPath, 40, { lastChunk: false });
    const response = await fetch(new URL(uploadPath, server.url), {
      method: "PATCH",
      headers: {
        "Tus-Resumable": "1.0.0",
        "Content-Type": "application/offset+octet-stream",
        "Upload-Offset": "0",
        ...uploaderHeaders(uploadPath),
      },
      body: mp4LikeBytes(100),
    });
    expect(response.status).toBe(204);
    const expires = Date.parse(response.headers.get("upload-expires") ?? "");
    expect(Math.abs(expires - (Date.now() + 48 * HOUR))).toBeLessThan(60_000);
  });
});
