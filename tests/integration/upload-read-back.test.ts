import crypto from "node:crypto";
import fs from "node:fs/promises";
import type { Event, User } from "drizzle/schema";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { RunningServer } from "../../server";
import { createUser, logIn } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { makeGrainyClip, makeTempDir, sha256 } from "../support/media-fixtures";
import { startTestServer } from "../support/test-server";
import { uploadFile } from "../support/tus-client";

// A finished upload read back at its upload URL: only its uploader (the token their browser
// kept) or the organiser get it, as a plain range-capable stream; several large reads at once
// arrive whole and leave the server up.

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let organiser: User;
let event: Event;
const uploads: { path: string; token: string; bytes: Buffer }[] = [];

beforeAll(async () => {
  files = await makeTempDir("upload-read-back");
  // Nothing is processed here: the test is about the stored originals.
  server = await startTestServer({ RUN_WORKER: "false", DATA_DIR: files.path("data") });
  organiser = await createUser();
  event = await createTestEvent(organiser);
  for (const seconds of [2, 3]) {
    const file = files.path(`clip-${seconds}.mp4`);
    await makeGrainyClip(file, { width: 640, height: 360, seconds });
    const token = crypto.randomBytes(24).toString("base64url");
    const metadata = {
      eventUuid: event.uuid,
      filename: `clip-${seconds}.mp4`,
      filetype: "video/mp4",
      contributorName: "Ines",
      uploadToken: token,
    };
    const { path } = await uploadFile(server.url, file, metadata, { chunkSize: 512 * 1024 });
    uploads.push({ path, token, bytes: await fs.readFile(file) });
  }
}, 120_000);
afterAll(async () => {
  await server?.close();
  await files?.remove();
});

const read = (path: string, headers: Record<string, string> = {}) => fetch(new URL(path, server.url), { headers });

test("the uploads are large enough to cross the stream's buffering", () => {
  for (const upload of uploads) expect(upload.bytes.byteLength).toBeGreaterThan(1024 * 1024);
});

test("without the upload token or the organiser's session, an upload is not found", async () => {
  const [first] = uploads;
  for (const headers of [
    {} as Record<string, string>,
    { "x-upload-token": "not-the-token-of-this-upload-at-all" },
    { "x-upload-token": uploads[1]!.token },
  ]) {
    const response = await read(first!.path, headers);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(await response.json()).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
  }
});

test("several large uploads read at once by their uploaders arrive byte for byte, and the server stays up", async () => {
  const reads = [...uploads, ...uploads, uploads[0]!].map(async (upload) => {
    const response = await read(upload.path, { "x-upload-token": upload.token });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.byteLength).toBe(upload.bytes.byteLength);
    expect(sha256(body)).toBe(sha256(upload.bytes));
  });
  await Promise.all(reads);
  const alive = await fetch(new URL("/api/v2/auth/who-am-i", server.url));
  expect(alive.status).toBeLessThan(500);
});

test("a range of an upload is answered 206 with exactly those bytes", async () => {
  const upload = uploads[1]!;
  const response = await read(upload.path, { "x-upload-token": upload.token, range: "bytes=1000-1999" });
  expect(response.status).toBe(206);
  expect(response.headers.get("content-range")).toBe(`bytes 1000-1999/${upload.bytes.byteLength}`);
  expect(Buffer.from(await response.arrayBuffer()).equals(upload.bytes.subarray(1000, 2000))).toBe(true);
});

test("the organiser reads an upload of their Chorus with their session; another account cannot", async () => {
  const upload = uploads[0]!;
  const owner = new TestClient(server.url);
  await logIn(owner, organiser.email);
  const mine = await owner.raw("GET", upload.path);
  expect(mine.status).toBe(200);
  expect(sha256(Buffer.from(await mine.arrayBuffer()))).toBe(sha256(upload.bytes));

  const stranger = await createUser();
  const other = new TestClient(server.url);
  await logIn(other, stranger.email);
  expect((await other.raw("GET", upload.path)).status).toBe(404);
});
