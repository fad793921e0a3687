import crypto from "node:crypto";
import fs from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import type { Event, Media, User } from "drizzle/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { signedMediaUrl } from "~/lib/media-url.server";
import { takeToast } from "~/lib/toast.server";
import { NOT_A_PHOTO_OR_VIDEO, SOUND_FILE } from "~/media/file-signature";
import { UNREADABLE_MEDIA_MESSAGE, probeMedia } from "~/media/probe.server";
import { updateEvent } from "~/models/event.server";
import { findMediaByUuid, listMediaOfEvent } from "~/models/media.server";
import { storage } from "~/services/media/storage.server";
import type { RunningServer } from "../../server";
import { HEIC_QUARTERS, makeAnimatedGif, makeTone } from "../media/support/media-fixtures";
import { createUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import {
  makeClip,
  makeGrainyClip,
  makePhoto,
  makePixelFloodPng,
  makeTempDir,
  mp4LikeBytes,
  sha256,
  sha256File,
  truncateFile,
} from "../support/media-fixtures";
import { startTestServer } from "../support/test-server";
import { TusRequestError, create, encodeMetadata, head, patch, terminate, uploadFile, uploaderHeaders } from "../support/tus-client";
import { until } from "../support/wait";

const MB = 1024 * 1024;

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let organiser: User;
let event: Event;
// Both servers of the restart test must share the tus staging folder and the session secret.
const settings = () => ({ JOB_POLL_SECONDS: "0.5", DATA_DIR: files.path("data") });

beforeAll(async () => {
  files = await makeTempDir("uploads");
  server = await startTestServer(settings());
  organiser = await createUser();
  event = await createTestEvent(organiser);
});
afterAll(async () => {
  await server?.close();
  await files?.remove();
});

const uploadToken = () => crypto.randomBytes(24).toString("base64url");

const metadataFor = (target: Event, file: { filename: string; filetype: string }) => ({
  eventUuid: target.uuid,
  filename: file.filename,
  filetype: file.filetype,
  contributorName: "Cyrus",
  caption: "Happy birthday, Ana!",
  purpose: "contribution",
  uploadToken: uploadToken(),
});

/** Polls the media record until processing has settled (ready or failed). */
async function settled(mediaUuid: string, timeout = 60_000): Promise<Media> {
  let status: string | undefined;
  return until(
    async () => {
      const record = await findMediaByUuid(db(), mediaUuid);
      status = record?.status ?? "missing";
      return record && (record.status === "ready" || record.status === "failed") ? record : null;
    },
    { timeout, what: () => `media ${mediaUuid}, still ${status}` },
  );
}

/** Resolves once nothing listens at `url` any more. */
async function untilRefused(url: string) {
  const { hostname, port } = new URL(url);
  const refused = () =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: hostname, port: Number(port) });
      socket.once("connect", () => {
        socket.destroy();
        resolve(false);
      });
      socket.once("error", () => resolve(true));
    });
  await until(refused, { timeout: 10_000, interval: 20, what: `nothing to listen at ${url}` });
}

/** What a refused tus request answered: its status and the message meant for the contributor. */
async function refusal(attempt: Promise<unknown>) {
  const error = await attempt.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof TusRequestError)) throw new Error(`expected a refused upload, got ${String(error)}`);
  return { status: error.status, message: error.userMessage };
}

/**
 * Starts a PATCH at offset 0 that announces all of `chunk` but sends only its first `sendFirst`
 * bytes, then waits: resolves to the server's answer, which must come before the rest is sent.
 */
function patchFirstBytes(baseUrl: string, path: string, chunk: Buffer, sendFirst: number) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const request = http.request(new URL(path, baseUrl), {
      method: "PATCH",
      headers: {
        "Tus-Resumable": "1.0.0",
        "Content-Type": "application/offset+octet-stream",
        "Upload-Offset": "0",
        "Content-Length": String(chunk.length),
        ...uploaderHeaders(path),
      },
    });
    const waited = setTimeout(() => {
      request.destroy();
      reject(new Error(`no answer after the first ${sendFirst} bytes of ${chunk.length}`));
    }, 5000);
    request.on("error", reject);
    request.on("response", (response) => {
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () => {
        clearTimeout(waited);
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString("utf8")) });
      });
    });
    request.write(chunk.subarray(0, sendFirst));
  });
}

describe("resumable uploads (tus)", () => {
  test("a clip sent in 1 MB chunks through two dropped connections and a server restart arrives byte-identical, then becomes a 1080p30 rendition", async () => {
    // Over 6 MB in 4 s, as a phone records it: the upload goes past its sixth chunk (the last cut),
    // and processing has only 4 s of video to make the rendition of.
    const clip = await makeGrainyClip(files.path("party.mp4"), { seconds: 4, bitrate: "15M" });
    const { size } = await fs.stat(clip);
    expect(size).toBeGreaterThan(6 * MB);
    // A deploy while a chunk is on its way: the server shuts down, the open request dies with it,
    // and a new server (new port, same database and files) takes over; the client finds it by retrying.
    let restarted: Promise<void> | undefined;
    const firstUrl = server.url;
    const restart = async () => {
      restarted = server.close().then(async () => {
        server = await startTestServer(settings());
      });
      // The old server stops taking connections first; only then does the line drop.
      await untilRefused(firstUrl);
    };

    const chunkSize = 1 * MB;
    const cuts: Record<number, { cutAfter: number; whileCut?: () => Promise<void> }> = {
      1: { cutAfter: 300_000 },
      3: { cutAfter: 700_000 },
      5: { cutAfter: 500_000, whileCut: restart },
    };
    const result = await uploadFile(() => server.url, clip, metadataFor(event, { filename: "party.mp4", filetype: "video/mp4" }), {
      chunkSize,
      interrupt: ({ index }) => cuts[index],
    });

    await restarted;
    expect(server.url).not.toBe(firstUrl);
    expect(result.lostPerCut).toHaveLength(3);
    for (const lost of result.lostPerCut) expect(lost).toBeLessThanOrEqual(chunkSize);
    expect(result.resentBytes).toBeLessThanOrEqual(3 * chunkSize);
    expect(result.mediaUuid).toMatch(/^[0-9a-f-]{36}$/);

    const record = (await findMediaByUuid(db(), result.mediaUuid!))!;
    expect(record).toMatchObject({ eventId: event.id, originalName: "party.mp4", sizeBytes: size, contributorName: "Cyrus" });
    const stored = await storage().localCopy(record.originalKey);
    expect(await sha256File(stored.path)).toBe(await sha256File(clip));

    // A grainy clip through ffmpeg 4.1 on a busy 2-core machine can take a while.
    const ready = await settled(record.mediaUuid, 120_000);
    expect(ready).toMatchObject({ status: "ready", kind: "video", width: 1280, height: 720, hasAudio: true, failureReason: null });

    // The rendition, fetched the way a <video> element does: a range first, then the whole file.
    const client = new TestClient(server.url);
    const link = signedMediaUrl(record.mediaUuid, "rendition");
    const head = await client.raw("GET", link, { headers: { range: "bytes=0-99" } });
    expect(head.status).toBe(206);
    expect(head.headers.get("content-type")).toBe("video/mp4");
    expect((await head.arrayBuffer()).byteLength).toBe(100);
    const whole = await client.raw("GET", link);
    expect(whole.status).toBe(200);
    const rendition = Buffer.from(await whole.arrayBuffer());
    expect(head.headers.get("content-range")).toBe(`bytes 0-99/${rendition.length}`);
    await fs.writeFile(files.path("rendition.mp4"), rendition);

    const [probe, source] = [await probeMedia(files.path("rendition.mp4")), await probeMedia(clip)];
    expect(probe.video).toMatchObject({ codec: "h264", width: 1920, height: 1080, frameRate: 30, rotation: 0 });
    expect(source.video?.duration).toBeCloseTo(4, 1);
    expect(Math.abs(probe.video!.duration! - source.video!.duration!)).toBeLessThanOrEqual(0.1);
    expect(probe.audio).toMatchObject({ codec: "aac", channels: 2, sampleRate: 48_000 });
  }, 150_000);
});

describe("uploads refused when they start", () => {
  test("an empty file, a closed Chorus, an unknown one, missing details and a file over the limit each get a clear answer", async () => {
    const clip = { filename: "clip.mp4", filetype: "video/mp4" };
    expect(await refusal(create(server.url, 0, metadataFor(event, clip)))).toEqual({ status: 400, message: "This file is empty." });

    const closed = await createTestEvent(organiser);
    await updateEvent(db(), closed.id, { deadline: new Date(Date.now() - 60_000) });
    expect(await refusal(create(server.url, 1000, metadataFor(closed, clip)))).toEqual({
      status: 409,
      message: "This Chorus is no longer collecting contributions.",
    });

    const unknown = { ...event, uuid: crypto.randomUUID() };
    expect(await refusal(create(server.url, 1000, metadataFor(unknown, clip)))).toEqual({
      status: 404,
      message: "There is no Chorus at this link.",
    });

    const { eventUuid: _left, ...withoutEvent } = metadataFor(event, clip);
    expect(await refusal(create(server.url, 1000, withoutEvent))).toEqual({
      status: 400,
      message: "This upload is not for a known Chorus.",
    });
    const { uploadToken: _token, ...withoutToken } = metadataFor(event, clip);
    expect(await refusal(create(server.url, 1000, withoutToken))).toEqual({ status: 400, message: "Missing upload token." });

    // Over every limit (tus itself checks), and over the photo limit only (our check).
    const huge = await refusal(create(server.url, 3 * 1024 ** 3, metadataFor(event, clip)));
    expect(huge).toEqual({ status: 413, message: "This file is too large: files can be up to 2 GB." });
    const bigPhoto = await refusal(create(server.url, 60 * MB, metadataFor(event, { filename: "scan.jpg", filetype: "image/jpeg" })));
    expect(bigPhoto).toEqual({ status: 413, message: "This file is too large: photos can be up to 50 MB." });
  });
});

describe("uploads judged by their first bytes", () => {
  const refusedAs = (message: string) => ({ success: false, error: { code: "UNSUPPORTED_TYPE", message } });

  test("a text file named .mp4 is refused at its first chunk, after a few KB, and its upload is removed", async () => {
    const notes = Buffer.from("These are my notes, not a video.\n".repeat(100_000));
    const path = await create(server.url, notes.length, metadataFor(event, { filename: "notes.mp4", filetype: "video/mp4" }));
    const id = path.split("/").pop()!;
    const before = await listMediaOfEvent(db(), event.id);

    // 8 KB of a 1 MB chunk are out when the answer comes: the rest, and the other 2 MB, are never needed.
    const answer = await patchFirstBytes(server.url, path, notes.subarray(0, MB), 8 * 1024);

    expect(answer).toEqual({ status: 415, body: refusedAs(NOT_A_PHOTO_OR_VIDEO) });
    expect(await refusal(head(server.url, path))).toMatchObject({ status: 404 });
    await expect(fs.stat(files.path(`data/storage/tus/${id}`))).rejects.toMatchObject({ code: "ENOENT" });
    await expect(fs.stat(files.path(`data/storage/tus/${id}.json`))).rejects.toMatchObject({ code: "ENOENT" });
    expect(await listMediaOfEvent(db(), event.id)).toHaveLength(before.length);
  });

  test("a voice memo (M4A) is refused as sound, a small text file sent whole or with its creation as no photo", async () => {
    const memo = await makeTone(files.path("memo.m4a"), 2);
    const sound = await refusal(
      uploadFile(server.url, memo, metadataFor(event, { filename: "memo.m4a", filetype: "audio/mp4" }), { chunkSize: 16 * 1024 }),
    );
    expect(sound).toEqual({ status: 415, message: SOUND_FILE });

    // One chunk that is the whole file: the chunk tus itself finishes.
    const shortNote = Buffer.from("Happy birthday!\n");
    const whole = await refusal(
      uploadFile(server.url, shortNote, metadataFor(event, { filename: "card.jpg", filetype: "image/jpeg" }), { chunkSize: MB }),
    );
    expect(whole).toEqual({ status: 415, message: NOT_A_PHOTO_OR_VIDEO });

    // Data sent with the request that creates the upload (tus creation-with-upload): no upload is made.
    const created = await new TestClient(server.url).raw("POST", "/uploads/tus", {
      body: shortNote,
      headers: {
        "Tus-Resumable": "1.0.0",
        "Upload-Length": String(shortNote.length),
        "Upload-Metadata": encodeMetadata(metadataFor(event, { filename: "card.jpg", filetype: "image/jpeg" })),
        "Content-Type": "application/offset+octet-stream",
      },
    });
    expect(created.status).toBe(415);
    expect(created.headers.get("location")).toBeNull();
    expect(await created.json()).toEqual(refusedAs(NOT_A_PHOTO_OR_VIDEO));
  });

  // Each file may take up to 30 s to be processed on a busy machine: the test's time covers both.
  test("a JPEG sent whole and an MP4 in small chunks pass their first bytes and arrive byte-identical", { timeout: 90_000 }, async () => {
    const photo = await fs.readFile(await makePhoto(files.path("first-bytes.jpg"), { width: 400, height: 300 }));
    const clip = await fs.readFile(await makeClip(files.path("first-bytes.mp4"), { seconds: 1 }));
    for (const [bytes, file, chunkSize] of [
      [photo, { filename: "first-bytes.jpg", filetype: "image/jpeg" }, MB],
      // The first chunk is read ahead and put back, then written on the short path for middle chunks.
      [clip, { filename: "first-bytes.mp4", filetype: "video/mp4" }, 8 * 1024],
    ] as const) {
      expect(bytes.length).toBeGreaterThan(chunkSize === MB ? 1000 : 3 * chunkSize);
      const sent = await uploadFile(server.url, bytes, metadataFor(event, file), { chunkSize });
      const stored = (await findMediaByUuid(db(), sent.mediaUuid!))!;
      expect(await sha256File((await storage().localCopy(stored.originalKey)).path), file.filename).toBe(sha256(bytes));
      expect(await settled(stored.mediaUuid, 30_000), file.filename).toMatchObject({ status: "ready" });
    }
  });
});

describe("what phones send", () => {
  test("an iPhone HEIC photo becomes a ready photo, an animated GIF a ready clip", async () => {
    const heic = await fs.readFile(HEIC_QUARTERS);
    const gif = await fs.readFile(await makeAnimatedGif(files.path("dance.gif"), { seconds: 2 }));
    const photo = await uploadFile(server.url, heic, metadataFor(event, { filename: "IMG_0042.HEIC", filetype: "image/heic" }), {
      chunkSize: MB,
    });
    const clip = await uploadFile(server.url, gif, metadataFor(event, { filename: "dance.gif", filetype: "image/gif" }), { chunkSize: MB });
    expect(await settled(photo.mediaUuid!, 30_000)).toMatchObject({
      status: "ready",
      kind: "photo",
      mimeType: "image/heic",
      width: 64,
      height: 48,
    });
    const ready = await settled(clip.mediaUuid!, 30_000);
    expect(ready).toMatchObject({ status: "ready", kind: "video", width: 160, height: 120, hasAudio: false });
    expect(ready.renditionKey).toMatch(/rendition\.mp4$/);
  });
});

describe("the tus protocol's own checks", () => {
  test("a wrong offset, an unknown upload and unreadable metadata are 4xx; a finished upload cannot be deleted", async () => {
    // An MP4's first box, then nothing of a clip: it passes the first bytes and fails in processing.
    const bytes = Buffer.concat([mp4LikeBytes(24), Buffer.from("not a clip\n".repeat(100))]);
    const sent = await uploadFile(server.url, bytes, metadataFor(event, { filename: "notes.mp4", filetype: "video/mp4" }), {
      chunkSize: MB,
    });
    expect(await refusal(patch(server.url, sent.path, 10, Buffer.from("more")))).toMatchObject({ status: 409 });
    expect(await refusal(patch(server.url, "/uploads/tus/0123456789abcdef0123456789abcdef", 0, Buffer.from("more")))).toMatchObject({
      status: 404,
    });
    const garbled = await new TestClient(server.url).raw("POST", "/uploads/tus", {
      headers: { "Tus-Resumable": "1.0.0", "Upload-Length": "10", "Upload-Metadata": "eventUuid ***,eventUuid ***" },
    });
    expect(garbled.status).toBe(400);
    await garbled.body?.cancel();

    // The finished upload's file is the stored original: a late cancel must not delete it.
    expect(await terminate(server.url, sent.path)).toBe(400);
    const record = (await findMediaByUuid(db(), sent.mediaUuid!))!;
    expect(await storage().stat(record.originalKey)).toMatchObject({ size: bytes.length });
    await settled(record.mediaUuid, 20_000);
  });
});

describe("uploads refused by their content", () => {
  test("a truncated MP4 and a pixel-flood PNG pass their first bytes, then end failed, each with its reason", async () => {
    const whole = await makeClip(files.path("whole.mp4"), { seconds: 2, faststart: true });
    const cases = [
      {
        file: { filename: "cut-off.mp4", filetype: "video/mp4" },
        bytes: await fs.readFile(await truncateFile(whole, files.path("cut-off.mp4"), 0.3)),
        reason: UNREADABLE_MEDIA_MESSAGE,
      },
      {
        file: { filename: "flood.png", filetype: "image/png" },
        bytes: await fs.readFile(await makePixelFloodPng(files.path("flood.png"))),
        reason: "This photo is too big (30000 × 30000 pixels). Photos can have at most 100 megapixels.",
      },
    ];
    const uploads = [];
    for (const { file, bytes } of cases) {
      const sent = await uploadFile(server.url, bytes, metadataFor(event, file), { chunkSize: 256 * 1024 });
      expect(sent.mediaUuid, `${file.filename} is accepted by tus`).toBeTruthy();
      const stored = (await findMediaByUuid(db(), sent.mediaUuid!))!;
      expect(await sha256File((await storage().localCopy(stored.originalKey)).path)).toBe(sha256(bytes));
      uploads.push(sent.mediaUuid!);
    }
    for (const [index, mediaUuid] of uploads.entries()) {
      expect(await settled(mediaUuid, 20_000)).toMatchObject({ status: "failed", failureReason: cases[index]!.reason });
    }
  }, 45_000);
});

describe("the no-JavaScript form", () => {
  test("a photo posted as multipart comes back to the event page with a thank-you and is processed", async () => {
    const photo = await fs.readFile(await makePhoto(files.path("beach.jpg")));
    const form = new FormData();
    form.append("contributorName", "Dee");
    form.append("caption", "Sun, sea and Ana");
    form.append("purpose", "contribution");
    form.append("file", new Blob([photo], { type: "image/jpeg" }), "beach.jpg");
    const before = await listMediaOfEvent(db(), event.id);

    const response = await new TestClient(server.url).raw("POST", `/e/${event.uuid}/contribute`, { body: form });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/e/${event.uuid}`);
    expect((await toastOf(response))?.type).toBe("success");

    const added = (await listMediaOfEvent(db(), event.id)).filter((m) => !before.some((b) => b.id === m.id));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      originalName: "beach.jpg",
      contributorName: "Dee",
      caption: "Sun, sea and Ana",
      sizeBytes: photo.length,
    });
    const ready = await settled(added[0]!.mediaUuid, 20_000);
    expect(ready).toMatchObject({ status: "ready", kind: "photo", width: 800, height: 600 });
    expect(ready.posterKey).toBeTruthy();
    expect(Object.keys(ready.thumbnails).sort()).toEqual(["thumb-320.jpg", "thumb-320.webp", "thumb-640.jpg", "thumb-640.webp"]);
  });

  test("a text file named .jpg comes back with its reason instead of a thank-you, and nothing is kept", async () => {
    const form = new FormData();
    form.append("contributorName", "Dee");
    form.append("purpose", "contribution");
    form.append("file", new Blob([Buffer.from("Dear Ana, these are my notes.\n".repeat(2000))], { type: "image/jpeg" }), "notes.jpg");
    const before = await listMediaOfEvent(db(), event.id);

    const response = await new TestClient(server.url).raw("POST", `/e/${event.uuid}/contribute`, { body: form });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/e/${event.uuid}`);
    expect(await toastOf(response)).toMatchObject({
      type: "error",
      title: "Upload failed",
      description: `notes.jpg: ${NOT_A_PHOTO_OR_VIDEO}`,
    });
    expect(await listMediaOfEvent(db(), event.id)).toHaveLength(before.length);
    expect(await fs.readdir(files.path("data/storage/form-uploads"))).toEqual([]);
  });

  test("a post without a file comes back with an error toast and records nothing", async () => {
    const form = new FormData();
    form.append("contributorName", "Dee");
    form.append("file", new Blob([], { type: "application/octet-stream" }), "");
    const before = await listMediaOfEvent(db(), event.id);

    const response = await new TestClient(server.url).raw("POST", `/e/${event.uuid}/contribute`, { body: form });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/e/${event.uuid}`);
    expect(await toastOf(response)).toMatchObject({ type: "error", description: "Choose a photo or a video to upload." });
    expect(await listMediaOfEvent(db(), event.id)).toHaveLength(before.length);
  });
});

describe("signed media links", () => {
  test("only a valid, unexpired signature for that very file is served, with its type", async () => {
    const photo = await fs.readFile(await makePhoto(files.path("link.jpg"), { width: 400, height: 300 }));
    const sent = await uploadFile(server.url, photo, metadataFor(event, { filename: "link.jpg", filetype: "image/jpeg" }), {
      chunkSize: MB,
    });
    const record = await settled(sent.mediaUuid!, 20_000);
    expect(record.status).toBe("ready");
    const client = new TestClient(server.url);
    const poster = signedMediaUrl(record.mediaUuid, "poster");
    const [pathOnly, query] = poster.split("?") as [string, string];
    const signature = new URLSearchParams(query).get("sig")!;
    const forged = poster.replace(`sig=${signature}`, `sig=${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`);
    const expired = signedMediaUrl(record.mediaUuid, "poster", Date.now() - 8 * 60 * 60 * 1000);
    const anotherFile = `${signedMediaUrl(record.mediaUuid, "original").split("?")[0]}?${query}`;

    for (const link of [pathOnly, forged, expired, anotherFile]) {
      const response = await client.raw("GET", link);
      expect(response.status, link).toBe(404);
      await response.body?.cancel();
    }
    const served = await client.raw("GET", poster);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  test("an original of a type a browser would run is only ever a download", async () => {
    // A GIF's first bytes pass the upload's check; what follows is a page a browser would run.
    const page = Buffer.from("GIF89a<!doctype html><script>alert(document.cookie)</script>");
    const sent = await uploadFile(server.url, page, metadataFor(event, { filename: "hello.html", filetype: "text/html" }), {
      chunkSize: MB,
    });
    const response = await new TestClient(server.url).raw("GET", signedMediaUrl(sent.mediaUuid!, "original"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(Buffer.from(await response.arrayBuffer()).equals(page)).toBe(true);
    await settled(sent.mediaUuid!, 20_000);
  });
});

async function toastOf(response: Response) {
  await response.body?.cancel();
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .find((pair) => pair.startsWith("__toast="));
  if (!cookie) return null;
  return (await takeToast(new Request("http://localhost/", { headers: { cookie } }))).toast;
}
