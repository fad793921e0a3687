import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { media } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { s3Storage } from "~/integrations/storage/s3.server";
import { db } from "~/lib/db.server";
import { resetEnvCache } from "~/lib/env.server";
import { createUser } from "../support/accounts";
import { killAppProcesses, startWebProcess, startWorkerProcess } from "../support/app-processes";
import { createTestEvent } from "../support/events";
import { freePort } from "../support/global-database";
import { makePhoto, makeTempDir } from "../support/media-fixtures";
import { startS3StandIn, type S3StandIn } from "../support/s3-stand-in";
import { applyTestEnvironment } from "../support/test-server";
import { create, headReply, patch, patchAndStall, patchSlowly, type SlowPatchReply } from "../support/tus-client";
import { until } from "../support/wait";

// Two web processes (RUN_WORKER=false) and a worker on one database, as a deployment runs them
// behind a load balancer without sticky sessions: the last chunk of an upload reaches both at the
// same moment (a phone's retry landing on the other process while the first request is still
// being read). One process at a time reads an upload's bytes: the newer request asks the older
// to let go, as tus has it within a process, and is refused while the older one still holds the
// upload; the upload is completed once, with its exact bytes and one media item.

const MiB = 1024 * 1024;
const S3_SETTINGS = ["S3_BUCKET", "S3_ENDPOINT", "S3_FORCE_PATH_STYLE", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"];
let files: Awaited<ReturnType<typeof makeTempDir>>;

beforeAll(async () => {
  files = await makeTempDir("upload-lock");
});
afterAll(async () => {
  await killAppProcesses();
  for (const name of S3_SETTINGS) delete process.env[name];
  resetEnvCache();
  await files?.remove();
});

/** Two web processes and a worker with these settings (and each web process's own data folder, when asked). */
async function deployment(settings: Record<string, string>, dataDirs: [string, string]) {
  const base = applyTestEnvironment(await freePort(), { RUN_WORKER: "false", ...settings });
  const webs = await Promise.all(
    dataDirs.map(async (dataDir) => {
      const port = await freePort();
      const url = `http://localhost:${port}`;
      await startWebProcess({ ...base, DATA_DIR: dataDir, PORT: String(port), APP_URL: url });
      return url;
    }),
  );
  await startWorkerProcess({ ...base, DATA_DIR: dataDirs[0] });
  return webs as [string, string];
}

/** A photo of `size` bytes: a real JPEG (its first bytes are judged), then bytes of no meaning. */
async function photoOf(size: number) {
  const jpeg = await fs.readFile(await makePhoto(files.path(`photo-${size}.jpg`), { width: 320, height: 240 }));
  return Buffer.concat([jpeg, crypto.randomBytes(size - jpeg.length)]);
}

const sha256 = (data: Buffer) => crypto.createHash("sha256").update(data).digest("hex");

/** A new upload of `size` bytes into a new Chorus. */
async function newUpload(url: string, size: number) {
  const event = await createTestEvent(await createUser());
  const upload = await create(url, size, {
    eventUuid: event.uuid,
    filename: "both.jpg",
    filetype: "image/jpeg",
    contributorName: "Ada",
    purpose: "contribution",
    uploadToken: crypto.randomBytes(24).toString("base64url"),
  });
  return { event, upload, id: upload.split("/").at(-1)! };
}

/**
 * Sends the last chunk of `bytes` to both processes at the same moment, slowly, then goes on as
 * tus-js-client does once its request failed: asks for the offset and sends what is missing.
 * Answers how the two requests ended.
 */
async function lastChunkToBoth(webs: [string, string], bytes: Buffer, lastChunk: number) {
  const { event, upload } = await newUpload(webs[0], bytes.length);
  const from = bytes.length - lastChunk;
  expect((await patch(webs[0], upload, 0, bytes.subarray(0, from))).offset).toBe(from);

  const replies = await Promise.all(webs.map((url) => patchSlowly(url, upload, from, bytes.subarray(from), { pieces: 8, pauseMs: 100 })));
  for (let tries = 0; tries < 10; tries++) {
    const { status, offset } = await headReply(webs[tries % 2]!, upload);
    expect(status).toBe(200);
    if (offset === bytes.length) break;
    await patch(webs[tries % 2]!, upload, offset, bytes.subarray(offset)).catch(() => {});
  }
  return { event, id: upload.split("/").at(-1)!, upload, replies };
}

/** Of two requests for the same bytes, the ones the server took whole. */
const taken = (replies: SlowPatchReply[]) => replies.filter((reply) => reply.status === 204);

async function expectOneContribution(eventId: string, id: string) {
  const rows = await db().select().from(media).where(eq(media.eventId, eventId));
  expect(rows.map((row) => row.uploadId)).toEqual([id]);
  return rows[0]!;
}

describe("staged on a disk the web processes share", () => {
  let webs: [string, string];
  beforeAll(async () => {
    const shared = files.path("shared");
    webs = await deployment({ DATA_DIR: shared }, [shared, shared]);
  });

  test("the last chunk sent to two web processes at once is read by one of them: the upload completes once, with its exact bytes and one media item", async () => {
    const bytes = await photoOf(3 * MiB + 4321);
    const { event, id, upload, replies } = await lastChunkToBoth(webs, bytes, MiB);

    expect(taken(replies).length).toBeLessThanOrEqual(1);
    for (const url of webs) expect((await headReply(url, upload)).offset).toBe(bytes.length);
    const record = await expectOneContribution(event.id, id);
    expect(record.sizeBytes).toBe(bytes.length);
    expect(sha256(await fs.readFile(path.join(files.path("shared"), "storage", "tus", id)))).toBe(sha256(bytes));
  });

  test("a chunk one web process is still reading is let go when its client resumes on the other, which goes on from what arrived", async () => {
    const bytes = await photoOf(3 * MiB + 1234);
    const { event, upload, id } = await newUpload(webs[0], bytes.length);
    expect((await patch(webs[0], upload, 0, bytes.subarray(0, MiB))).offset).toBe(MiB);
    // The next chunk reaches the first process in part, then nothing more arrives on its connection.
    const stalled = patchAndStall(webs[0], upload, MiB, bytes.subarray(MiB, 2 * MiB), 256 * 1024);
    const staged = path.join(files.path("shared"), "storage", "tus", id);
    await until(async () => (await fs.stat(staged)).size === MiB + 256 * 1024, {
      timeout: 20_000,
      interval: 50,
      what: "the stalled chunk's first bytes",
    });

    try {
      // The phone retries on the other process: its HEAD asks the first to let go of the upload, which
      // gives the stalled chunk its grace (lockDrainTimeout) and then ends it.
      const resumed = await headReply(webs[1], upload);
      expect(resumed).toMatchObject({ status: 200, offset: MiB + 256 * 1024 });
      let ended = false;
      void stalled.closedByServer.then(() => (ended = true));
      await until(() => ended, { timeout: 20_000, interval: 100, what: "the first process to end the stalled chunk" });
    } finally {
      stalled.abandon();
    }

    const done = await patch(webs[1], upload, MiB + 256 * 1024, bytes.subarray(MiB + 256 * 1024));
    expect(done.offset).toBe(bytes.length);
    const record = await expectOneContribution(event.id, id);
    expect(record.mediaUuid).toBe(done.mediaUuid);
    expect(sha256(await fs.readFile(staged))).toBe(sha256(bytes));
  });
});

describe("staged in an S3 bucket", () => {
  let webs: [string, string];
  let s3: S3StandIn;
  beforeAll(async () => {
    s3 = await startS3StandIn();
    await killAppProcesses();
    webs = await deployment(
      {
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: "true",
        S3_ACCESS_KEY_ID: "APPKEYID",
        S3_SECRET_ACCESS_KEY: "app-secret",
      },
      [files.path("a"), files.path("b")],
    );
  });
  afterAll(async () => {
    await killAppProcesses();
    await s3?.close();
  });

  /** The stored original's bytes, read from the bucket. */
  async function storedBytes(key: string) {
    const bucket = s3Storage({
      bucket: s3.bucket,
      region: "us-east-1",
      endpoint: s3.endpoint,
      forcePathStyle: true,
      accessKeyId: "K",
      secretAccessKey: "S",
    });
    const parts: Buffer[] = [];
    for await (const part of await bucket.read(key)) parts.push(part as Buffer);
    return Buffer.concat(parts);
  }

  test("the last chunk sent to two web processes at once is read by one of them: the upload completes once, with its exact bytes and one media item", async () => {
    // 6 MiB first: less than a part (8 MiB), kept aside in the bucket for the last chunk to take back.
    const bytes = await photoOf(10 * MiB + 4321);
    const { event, id, upload, replies } = await lastChunkToBoth(webs, bytes, 4 * MiB + 4321);

    expect(taken(replies).length).toBeLessThanOrEqual(1);
    for (const url of webs) expect((await headReply(url, upload)).offset).toBe(bytes.length);
    const record = await expectOneContribution(event.id, id);
    expect(record.sizeBytes).toBe(bytes.length);
    expect(sha256(await storedBytes(record.originalKey!))).toBe(sha256(bytes));
  });
});
