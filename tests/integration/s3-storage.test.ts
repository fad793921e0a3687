import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { localDiskStorage } from "~/integrations/storage/local-disk.server";
import { s3Storage } from "~/integrations/storage/s3.server";
import type { StorageProvider } from "~/integrations/storage/storage-port";
import { db } from "~/lib/db.server";
import { resetEnvCache } from "~/lib/env.server";
import { findMediaByUuid } from "~/models/media.server";
import { storage } from "~/services/media/storage.server";
import { storedPieces } from "~/services/render/render-pieces.server";
import { uploadStagingDir } from "~/services/uploads/upload-expiry.server";
import type { RunningServer } from "../../server";
import { makeTempDir } from "../media/support/media-fixtures";
import { createUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { makePhoto } from "../support/media-fixtures";
import { startS3StandIn, type S3StandIn } from "../support/s3-stand-in";
import { startTestServer } from "../support/test-server";
import { uploadFile } from "../support/tus-client";

const MiB = 1024 * 1024;
// Small enough to keep the test quick, the smallest S3 accepts: an 11 MiB file goes up in 3 parts.
const PART_SIZE = 5 * MiB;

let files: Awaited<ReturnType<typeof makeTempDir>>;
let s3: S3StandIn;

beforeAll(async () => {
  files = await makeTempDir("storage");
  s3 = await startS3StandIn();
});
afterAll(async () => {
  await s3?.close();
  await files?.remove();
});

const s3Provider = () =>
  s3Storage({
    bucket: s3.bucket,
    region: "eu-west-1",
    endpoint: s3.endpoint,
    forcePathStyle: true,
    accessKeyId: "TESTKEYID",
    secretAccessKey: "test-secret",
    partSize: PART_SIZE,
  });

/** Bytes that differ everywhere, so a range off by one cannot pass. */
const bytes = (size: number) => crypto.randomBytes(size);

async function localFile(content: Buffer) {
  const file = files.path(crypto.randomUUID());
  await fs.writeFile(file, content);
  return file;
}

async function readAll(stream: Readable) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

const providers: [string, () => StorageProvider][] = [
  ["local disk", () => localDiskStorage(files.path("local-storage"))],
  ["an S3-compatible bucket", s3Provider],
];

describe.each(providers)("storage on %s", (_name, make) => {
  let store: StorageProvider;
  const key = (name: string) => `events/${crypto.randomUUID()}/media/${name}`;
  beforeAll(() => {
    store = make();
  });

  test("a stored file reads back byte for byte, whole and in ranges, with its type", async () => {
    const content = bytes(200_000);
    const source = await localFile(content);
    const photo = key("rendition.jpg");

    expect(await store.putFile(photo, source, "image/jpeg")).toEqual({ size: 200_000, contentType: "image/jpeg" });
    // The file is taken over, not copied.
    expect(await exists(source)).toBe(false);
    expect(await store.stat(photo)).toEqual({ size: 200_000, contentType: "image/jpeg" });
    expect((await readAll(await store.read(photo))).equals(content)).toBe(true);
    expect(await readAll(await store.read(photo, { start: 1000, end: 1999 }))).toEqual(content.subarray(1000, 2000));
    expect(await readAll(await store.read(photo, { start: 0, end: 0 }))).toEqual(content.subarray(0, 1));
    expect(await readAll(await store.read(photo, { start: 199_990, end: 199_999 }))).toEqual(content.subarray(199_990));
  });

  test("a stream is stored whole, and each object keeps the type it was given", async () => {
    const parts = [bytes(10), bytes(70_000), bytes(3)];
    const clip = key("rendition.mp4");
    expect(await store.putStream(clip, Readable.from(parts), "video/mp4")).toEqual({ size: 70_013, contentType: "video/mp4" });
    expect(await readAll(await store.read(clip))).toEqual(Buffer.concat(parts));

    const types = {
      "thumb-320.webp": "image/webp",
      "notes.txt": "text/plain; charset=utf-8",
      "odd name é.bin": "application/octet-stream",
    };
    for (const [name, type] of Object.entries(types)) {
      const stored = key(name);
      await store.putStream(stored, Readable.from([Buffer.from(name)]), type);
      expect(await store.stat(stored)).toEqual({ size: Buffer.byteLength(name), contentType: type });
      expect((await readAll(await store.read(stored))).toString()).toBe(name);
    }
  });

  test("a local copy holds the same bytes and releasing it leaves the stored object alone", async () => {
    const content = bytes(50_000);
    const original = key("original.mov");
    await store.putFile(original, await localFile(content), "video/quicktime");
    const copy = await store.localCopy(original);
    expect(await fs.readFile(copy.path)).toEqual(content);
    await copy.release();
    expect((await readAll(await store.read(original))).equals(content)).toBe(true);
  });

  test("storing again under a key replaces the bytes and the type", async () => {
    const poster = key("poster.jpg");
    await store.putFile(poster, await localFile(bytes(300)), "image/png");
    const newer = bytes(120);
    await store.putFile(poster, await localFile(newer), "image/jpeg");
    expect(await store.stat(poster)).toEqual({ size: 120, contentType: "image/jpeg" });
    expect(await readAll(await store.read(poster))).toEqual(newer);
  });

  test("a file larger than one part arrives whole", async () => {
    const content = bytes(11 * MiB + 123);
    const big = key("big.mp4");
    await store.putFile(big, await localFile(content), "video/mp4");
    expect(await store.stat(big)).toEqual({ size: content.length, contentType: "video/mp4" });
    expect((await readAll(await store.read(big))).equals(content)).toBe(true);
    const tail = await readAll(await store.read(big, { start: 11 * MiB - 7, end: 11 * MiB + 122 }));
    expect(tail).toEqual(content.subarray(11 * MiB - 7));
  });

  test("an empty file is an object of 0 bytes", async () => {
    const empty = key("empty.txt");
    expect(await store.putFile(empty, await localFile(Buffer.alloc(0)), "text/plain")).toEqual({ size: 0, contentType: "text/plain" });
    expect(await store.stat(empty)).toEqual({ size: 0, contentType: "text/plain" });
    expect((await readAll(await store.read(empty))).length).toBe(0);
  });

  test("a missing key has no stat, and reading it or copying it rejects with the key named", async () => {
    const missing = key("never-stored.jpg");
    expect(await store.stat(missing)).toBeNull();
    await expect(store.read(missing)).rejects.toMatchObject({
      name: "MissingObjectError",
      key: missing,
      message: `No stored file at "${missing}".`,
    });
    await expect(store.read(missing, { start: 0, end: 9 })).rejects.toMatchObject({ name: "MissingObjectError" });
    await expect(store.localCopy(missing)).rejects.toMatchObject({ name: "MissingObjectError" });
  });

  test("a deleted object is gone, and deleting it again is harmless", async () => {
    const thumb = key("thumb-640.jpg");
    await store.putFile(thumb, await localFile(bytes(64)), "image/jpeg");
    await store.delete(thumb);
    expect(await store.stat(thumb)).toBeNull();
    await expect(store.read(thumb)).rejects.toMatchObject({ name: "MissingObjectError" });
    await expect(store.delete(thumb)).resolves.toBeUndefined();
  });
});

describe("the S3 provider at the HTTP boundary", () => {
  const key = (name: string) => `events/${crypto.randomUUID()}/${name}`;
  const requestsFor = (objectKey: string) => s3.requests.filter((r) => r.key === objectKey);

  test("requests are path-style, signed with the configured key, and a streamed body arrives aws-chunked", async () => {
    const store = s3Provider();
    const photo = key("a photo.jpg");
    await store.putFile(photo, await localFile(bytes(40_000)), "image/jpeg");
    await store.stat(photo);
    const [put, head] = requestsFor(photo);
    expect(put).toMatchObject({ operation: "PutObject", bucket: s3.bucket, status: 200, accessKeyId: "TESTKEYID", bytes: 40_000 });
    // What the SDK does with a stream body: the stand-in decoded it against x-amz-decoded-content-length.
    expect(put!.contentEncoding).toMatch(/aws-chunked/);
    expect(head).toMatchObject({ operation: "HeadObject", status: 200 });
  });

  test("a large file goes up in parts that are completed, and a ranged read asks for just those bytes", async () => {
    const store = s3Provider();
    const big = key("clip.mp4");
    await store.putFile(big, await localFile(bytes(11 * MiB)), "video/mp4");
    const operations = requestsFor(big).map((r) => r.operation);
    expect(operations.filter((o) => o === "UploadPart")).toHaveLength(3);
    expect(operations[0]).toBe("CreateMultipartUpload");
    expect(operations.at(-1)).toBe("CompleteMultipartUpload");
    expect(
      requestsFor(big)
        .filter((r) => r.operation === "UploadPart")
        .map((r) => r.bytes),
    ).toEqual(expect.arrayContaining([PART_SIZE, PART_SIZE, MiB]));
    expect(s3.openUploads()).toBe(0);

    await readAll(await store.read(big, { start: 5, end: 14 }));
    expect(requestsFor(big).at(-1)).toMatchObject({ operation: "GetObject", range: "bytes=5-14", status: 206, bytes: 10 });
  });

  test("an upload answered 503 SlowDown is sent again, whole or part by part", async () => {
    const store = s3Provider();
    const small = key("small.jpg");
    const content = bytes(30_000);
    s3.failNext("PutObject");
    await store.putFile(small, await localFile(content), "image/jpeg");
    expect(requestsFor(small).map((r) => r.status)).toEqual([503, 200]);
    expect(await readAll(await store.read(small))).toEqual(content);

    const big = key("big.mp4");
    const large = bytes(6 * MiB);
    s3.failNext("UploadPart");
    await store.putFile(big, await localFile(large), "video/mp4");
    expect(requestsFor(big).filter((r) => r.status === 503)).toHaveLength(1);
    expect((await readAll(await store.read(big))).equals(large)).toBe(true);
  });

  test("an upload that keeps failing is aborted, leaves no parts behind and keeps the local file", async () => {
    const store = s3Provider();
    const big = key("doomed.mp4");
    const source = await localFile(bytes(6 * MiB));
    s3.failNext("UploadPart", 100);
    await expect(store.putFile(big, source, "video/mp4")).rejects.toMatchObject({ name: "SlowDown" });
    s3.failNext("UploadPart", 0);
    expect(requestsFor(big).map((r) => r.operation)).toContain("AbortMultipartUpload");
    expect(s3.openUploads()).toBe(0);
    expect(await store.stat(big)).toBeNull();
    expect(await exists(source)).toBe(true);
  }, 20_000);

  test("the stand-in refuses an aws-chunked body shorter than its declared length", async () => {
    const response = await fetch(`${s3.endpoint}/${s3.bucket}/bad`, {
      method: "PUT",
      headers: {
        "content-encoding": "aws-chunked",
        "x-amz-content-sha256": "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
        "x-amz-decoded-content-length": "10",
      },
      body: "5\r\nhello\r\n0\r\n\r\n",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("IncompleteBody");
  });

  test("the app's storage is this bucket when S3_BUCKET and its settings are in the environment", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: "ENVKEYID",
      S3_SECRET_ACCESS_KEY: "env-secret",
    });
    resetEnvCache();
    try {
      const stored = key("from-env.txt");
      expect(storage().name).toBe("s3");
      await storage().putStream(stored, Readable.from([Buffer.from("hello")]), "text/plain");
      expect(requestsFor(stored)[0]).toMatchObject({ operation: "PutObject", accessKeyId: "ENVKEYID", status: 200 });
      expect(await storage().stat(stored)).toEqual({ size: 5, contentType: "text/plain" });
    } finally {
      process.env = saved;
      resetEnvCache();
    }
  });
});

describe("the app with its files in an S3 bucket", () => {
  const S3_SETTINGS = ["S3_BUCKET", "S3_ENDPOINT", "S3_FORCE_PATH_STYLE", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"];
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({
      JOB_POLL_SECONDS: "0.5",
      DATA_DIR: files.path("app-data"),
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: "APPKEYID",
      S3_SECRET_ACCESS_KEY: "app-secret",
    });
  });
  afterAll(async () => {
    await server?.close();
    // The next test file shares this process: it must find local storage again.
    for (const name of S3_SETTINGS) delete process.env[name];
    resetEnvCache();
  });

  test("a resumable upload ends in the bucket and is processed from there", async () => {
    const event = await createTestEvent(await createUser());
    const photo = await makePhoto(files.path("upload.jpg"), { width: 640, height: 480 });
    const content = await fs.readFile(photo);
    const sent = await uploadFile(
      server.url,
      photo,
      {
        eventUuid: event.uuid,
        filename: "upload.jpg",
        filetype: "image/jpeg",
        contributorName: "Cyrus",
        caption: "",
        purpose: "contribution",
        uploadToken: crypto.randomBytes(24).toString("base64url"),
      },
      { chunkSize: 16 * 1024 },
    );

    let record = await findMediaByUuid(db(), sent.mediaUuid!);
    for (let tries = 0; record?.status !== "ready" && tries < 120; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      record = await findMediaByUuid(db(), sent.mediaUuid!);
    }
    expect(record).toMatchObject({ status: "ready", kind: "photo", width: 640, height: 480 });
    // Staged in the bucket as it arrived (docs/decisions/032): the joined upload is the original,
    // and nothing of the file was ever in the staging folder.
    expect(record!.originalKey).toBe(path.basename(sent.path));
    expect(await exists(path.join(uploadStagingDir(), path.basename(sent.path)))).toBe(false);
    expect(await storage().stat(record!.originalKey)).toEqual({ size: content.length, contentType: "image/jpeg" });
    expect((await readAll(await storage().read(record!.originalKey))).equals(content)).toBe(true);
    const staged = s3.requests.filter((r) => r.key === record!.originalKey);
    expect(staged.map((r) => r.operation)).toEqual(
      expect.arrayContaining(["CreateMultipartUpload", "UploadPart", "CompleteMultipartUpload"]),
    );
    const written = s3.requests.filter((r) => r.operation === "PutObject" && r.key.startsWith(`events/${event.id}/`));
    expect(written.map((r) => r.key)).toEqual(expect.arrayContaining([record!.renditionKey, record!.posterKey]));
    expect([...staged, ...written].every((r) => r.accessKeyId === "APPKEYID")).toBe(true);
    expect(written.every((r) => r.status === 200)).toBe(true);
  });

  test("render pieces are kept in the bucket; asking whether one is there downloads nothing, and a render fetches only the files it needs", async () => {
    const pieceKey = `test-piece-${crypto.randomUUID()}`;
    const body = files.path(`${pieceKey}-body.mp4`);
    const audio = files.path(`${pieceKey}-audio.wav`);
    await fs.writeFile(body, bytes(4096));
    await fs.writeFile(audio, bytes(2048));
    const pieces = storedPieces();
    await pieces.put(pieceKey, "clip", { body, audio }, 24);
    const mine = () => s3.requests.filter((r) => r.key.includes(pieceKey));
    const before = mine().length;

    // Render-ahead asks this for every scene of the event each time a contribution arrives.
    expect(await pieces.has(pieceKey)).toBe(true);
    expect(
      mine()
        .slice(before)
        .map((r) => r.operation),
    ).not.toContain("GetObject");
    // A render that joins the piece does fetch it.
    const got = await pieces.get(pieceKey);
    expect(
      mine()
        .slice(before)
        .filter((r) => r.operation === "GetObject"),
    ).toHaveLength(2);
    expect((await fs.readFile(got!.files.body!)).length).toBe(4096);
    // A render that needs only the body (the join, after a caption change) fetches only that.
    const bodyOnly = await pieces.get(pieceKey, ["body"]);
    expect(Object.keys(bodyOnly!.files)).toEqual(["body"]);
    expect(
      mine()
        .slice(before)
        .filter((r) => r.operation === "GetObject"),
    ).toHaveLength(3);
    await pieces.release();

    // A piece that lost a file is not there: it will be rendered again.
    await storage().delete(mine().find((r) => r.operation === "PutObject" && r.key.endsWith("/audio.wav"))!.key);
    expect(await pieces.has(pieceKey)).toBe(false);
  });
});
