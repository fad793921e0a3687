import crypto from "node:crypto";
import fs from "node:fs/promises";
import { Readable } from "node:stream";
import { CreateMultipartUploadCommand, GetObjectCommand, S3Client, UploadPartCommand } from "@aws-sdk/client-s3";
import { ERRORS, Upload } from "@tus/server";
import { afterAll, beforeAll, expect, test } from "vitest";
import { s3Storage } from "~/integrations/storage/s3.server";
import { db } from "~/lib/db.server";
import { resetEnvCache } from "~/lib/env.server";
import { findMediaByUploadId } from "~/models/media.server";
import { bucketStagingStore } from "~/services/uploads/bucket-staging.server";
import { createUser } from "../support/accounts";
import { killAppProcesses, startWebProcess, type AppProcess } from "../support/app-processes";
import { createTestEvent } from "../support/events";
import { freePort } from "../support/global-database";
import { makePhoto, makeTempDir } from "../support/media-fixtures";
import { startS3StandIn, type S3StandIn } from "../support/s3-stand-in";
import { applyTestEnvironment } from "../support/test-server";
import { create, head, patch, patchAndCut } from "../support/tus-client";
import { until } from "../support/wait";

// With S3 storage, uploads in progress are staged in the bucket (docs/decisions/032): web processes
// with nothing on disk in common take each other's uploads. Two web processes of their own, each
// with its own DATA_DIR, one bucket: an upload begun on one goes on on the other after a cut and
// after the first was restarted, and ends as one contribution holding exactly the file's bytes.

const MiB = 1024 * 1024;
const S3_SETTINGS = ["S3_BUCKET", "S3_ENDPOINT", "S3_FORCE_PATH_STYLE", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"];
let s3: S3StandIn;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let settings: Record<string, string>;

/** A web process with a data folder of its own. */
async function webProcess(name: string, extra: Record<string, string> = {}) {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const process: AppProcess = await startWebProcess({
    ...settings,
    DATA_DIR: files.path(name),
    PORT: String(port),
    APP_URL: url,
    ...extra,
  });
  return { url, process };
}

/** A photo of `size` bytes: a real JPEG (its first bytes are judged), then bytes of no meaning. */
async function photoOf(size: number) {
  const jpeg = await fs.readFile(await makePhoto(files.path(`photo-${size}.jpg`), { width: 320, height: 240 }));
  return Buffer.concat([jpeg, crypto.randomBytes(size - jpeg.length)]);
}

const sha256 = (data: Buffer) => crypto.createHash("sha256").update(data).digest("hex");

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

beforeAll(async () => {
  files = await makeTempDir("bucket-staging");
  s3 = await startS3StandIn();
  settings = applyTestEnvironment(await freePort(), {
    RUN_WORKER: "false",
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: "true",
    S3_ACCESS_KEY_ID: "APPKEYID",
    S3_SECRET_ACCESS_KEY: "app-secret",
  });
});

afterAll(async () => {
  await killAppProcesses();
  // The next test file shares this process: it must find local storage again.
  for (const name of S3_SETTINGS) delete process.env[name];
  resetEnvCache();
  await s3?.close();
  await files?.remove();
});

test("an upload begun on one web process goes on on another after a cut and a restart, and ends as one contribution with its exact bytes", async () => {
  const event = await createTestEvent(await createUser());
  // Parts are 8 MiB (but the last): a chunk that leaves less is kept aside until the next one.
  const bytes = await photoOf(12 * MiB + 12_345);
  let a = await webProcess("a");
  const b = await webProcess("b");
  const upload = await create(a.url, bytes.length, {
    eventUuid: event.uuid,
    filename: "far.jpg",
    filetype: "image/jpeg",
    contributorName: "Ada",
    purpose: "contribution",
    uploadToken: crypto.randomBytes(24).toString("base64url"),
  });

  // 1 MiB to A: less than a part, kept aside in the bucket; B sees it.
  expect((await patch(a.url, upload, 0, bytes.subarray(0, MiB))).offset).toBe(MiB);
  expect(await head(b.url, upload)).toBe(MiB);

  // B takes 8 MiB more (one part goes up, 1 MiB is kept aside), and its connection drops 1.5 MiB
  // into the next chunk: what arrived is kept.
  expect((await patch(b.url, upload, MiB, bytes.subarray(MiB, 9 * MiB))).offset).toBe(9 * MiB);
  expect(s3.requests.filter((r) => r.operation === "UploadPart" && r.status === 200).map((r) => r.bytes)).toEqual([8 * MiB]);
  await patchAndCut(b.url, upload, 9 * MiB, bytes.subarray(9 * MiB, 11 * MiB), 1.5 * MiB);
  const afterCut = await until(
    async () => {
      const offset = await head(a.url, upload);
      // The cut request is done once its bytes are in the bucket.
      return offset > 9 * MiB && offset === (await head(b.url, upload)) && offset;
    },
    { timeout: 20_000, interval: 200, what: "the cut chunk's bytes in the bucket" },
  );
  expect(afterCut).toBeLessThanOrEqual(10.5 * MiB);

  // A is restarted (a deployment); nothing of the upload was on its disk.
  await a.process.kill();
  a = await webProcess("a");
  expect(await fs.readdir(files.path("a/storage/tus")).catch(() => [])).toEqual([]);
  expect(await head(a.url, upload)).toBe(afterCut);
  const done = await patch(a.url, upload, afterCut, bytes.subarray(afterCut));
  expect(done.offset).toBe(bytes.length);
  expect(done.mediaUuid).toMatch(/^[0-9a-f-]{36}$/);

  const id = upload.split("/").at(-1)!;
  const record = await findMediaByUploadId(db(), id);
  expect(record).toMatchObject({ mediaUuid: done.mediaUuid, eventId: event.id, originalKey: id });
  expect(sha256(await storedBytes(record!.originalKey!))).toBe(sha256(bytes));
  // One contribution, and nothing left of the upload but its object and its info.
  expect(await head(b.url, upload)).toBe(bytes.length);
  expect(s3.openUploads()).toBe(0);
  const keys = new Set(s3.requests.filter((r) => r.key.startsWith(id)).map((r) => r.key));
  expect([...keys].sort()).toEqual([id, `${id}.info`, `${id}.part`]);
  await expect(storedBytes(`${id}.part`)).rejects.toThrow();
  expect(await fs.readdir(files.path("b/storage/tus")).catch(() => [])).toEqual([]);
  // Their sweeps are not the next test's to race.
  await killAppProcesses();
}, 180_000);

test("a complete upload in the bucket without its record is recorded by the sweep of a web process that never saw it", async () => {
  const event = await createTestEvent(await createUser());
  const bytes = await photoOf(300_000);
  const web = await webProcess("c", { UPLOAD_FINISH_SWEEP_SECONDS: "1" });
  // Its last bytes arrived and the process died before the record: written here, with the store.
  const store = bucketStagingStore(60 * 60 * 1000);
  const id = crypto.randomBytes(16).toString("hex");
  const metadata = {
    eventUuid: event.uuid,
    filename: "late.jpg",
    filetype: "image/jpeg",
    contributorName: "Bo",
    purpose: "contribution",
    uploadToken: crypto.randomBytes(24).toString("base64url"),
  };
  await store.create(new Upload({ id, size: bytes.length, offset: 0, metadata }));
  expect(await store.write(Readable.from([bytes]), id, 0)).toBe(bytes.length);
  expect(await findMediaByUploadId(db(), id)).toBeFalsy();

  const record = await until(() => findMediaByUploadId(db(), id), {
    timeout: 30_000,
    interval: 200,
    what: "the sweep to record the upload",
  });
  expect(record).toMatchObject({ eventId: event.id, originalKey: id });
  expect(sha256(await storedBytes(id))).toBe(sha256(bytes));
  expect(web.process.output()).toContain("recorded 1 complete upload(s)");
}, 120_000);

test("an upload whose every byte reached the bucket but whose parts were never joined is joined when asked for its offset", async () => {
  const bytes = crypto.randomBytes(50_000);
  const id = crypto.randomBytes(16).toString("hex");
  await bucketStagingStore(0).create(new Upload({ id, size: bytes.length, offset: 0, metadata: { filetype: "image/jpeg" } }));
  // The last part went up and the process stopped before it joined them.
  const client = new S3Client({
    region: "us-east-1",
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "K", secretAccessKey: "S" },
  });
  const info = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `${id}.info` }));
  const UploadId = info.Metadata!["upload-id"]!;
  await client.send(new UploadPartCommand({ Bucket: s3.bucket, Key: id, UploadId, PartNumber: 1, Body: bytes }));
  client.destroy();

  const upload = await bucketStagingStore(0).getUpload(id);
  expect(upload.offset).toBe(bytes.length);
  expect(sha256(await storedBytes(id))).toBe(sha256(bytes));
  expect(s3.requests.filter((r) => r.key === id && r.operation === "CompleteMultipartUpload").map((r) => r.status)).toEqual([200]);
});

test("an unfinished upload in the bucket expires after its last chunk, not after its start; other multipart uploads are left alone", async () => {
  const store = bucketStagingStore(3000);
  const metadata = { filename: "a.jpg", filetype: "image/jpeg" };
  const [idle, going] = [crypto.randomBytes(16).toString("hex"), crypto.randomBytes(16).toString("hex")];
  for (const id of [idle, going]) {
    await store.create(new Upload({ id, size: 100_000, offset: 0, metadata }));
    await store.write(Readable.from([crypto.randomBytes(10_000)]), id, 0);
  }
  // A large file the storage provider is sending in parts right now: not an upload of ours.
  const client = new S3Client({
    region: "us-east-1",
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "K", secretAccessKey: "S" },
  });
  await client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: "events/1/media/big.mp4" }));

  // Both began more than the expiry period ago; one had a chunk just now.
  await new Promise((resolve) => setTimeout(resolve, 3500));
  await store.write(Readable.from([crypto.randomBytes(10_000)]), going, 10_000);
  // Another process that read the idle upload before (it remembers its info).
  const elsewhere = bucketStagingStore(3000);
  expect((await elsewhere.getUpload(idle)).offset).toBe(10_000);
  expect(await store.deleteExpired()).toBe(1);

  await expect(store.getUpload(idle)).rejects.toBe(ERRORS.FILE_NOT_FOUND);
  await expect(elsewhere.getUpload(idle)).rejects.toBe(ERRORS.FILE_NO_LONGER_EXISTS);
  expect((await store.getUpload(going)).offset).toBe(20_000);
  // The one still going and the provider's.
  expect(s3.openUploads()).toBe(2);
  client.destroy();
});
