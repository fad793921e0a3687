import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import { promisify } from "node:util";
import type { Event, Media, User } from "drizzle/schema";
import { io as connectSocket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { dropSingleton } from "~/lib/singleton.server";
import { probeMedia } from "~/media/probe.server";
import { findEventById, setEventPaid } from "~/models/event.server";
import { updateMedia } from "~/models/media.server";
import { listPublishedVersions } from "~/models/published-media.server";
import { findRenderJob } from "~/models/render-job.server";
import { piecesOf, type RenderPlan } from "~/render/plan";
import { storage } from "~/services/media/storage.server";
import type { RunningServer } from "../../server";
import { makeClip, makeTempDir } from "../media/support/media-fixtures";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { makeMember } from "../support/payments";
import { addReadyMedia } from "../support/ready-media";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

const run = promisify(execFile);

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let clipFile: string;
let speakingClip: string;
const feeds: ReturnType<typeof connectSocket>[] = [];

// Short stills and title cards keep each render to a few seconds of video on two cores.
// A heartbeat a second: a cancelled render stops within one.
const SETTINGS = {
  JOB_POLL_SECONDS: "0.5",
  RENDER_PHOTO_SECONDS: "2",
  RENDER_TITLE_SECONDS: "1.5",
  JOB_RETRY_DELAY_SECONDS: "1",
  JOB_HEARTBEAT_SECONDS: "1",
};

beforeAll(async () => {
  files = await makeTempDir("render-publish");
  dropSingleton("storage");
  server = await startTestServer({ ...SETTINGS, DATA_DIR: files.path("data") });
  clipFile = await makeClip(files.path("clip.mp4"), { seconds: 2, audio: false });
  speakingClip = await makeClip(files.path("speaking.mp4"), { seconds: 2, width: 360, height: 640 });
});
afterAll(async () => {
  for (const socket of feeds) socket.close();
  await server?.close();
  dropSingleton("storage");
  await files?.remove();
});

/** An organiser with an event holding a silent clip, a photo and a clip with sound. */
async function arrangedEvent() {
  const { user, client } = await loggedInUser(server.url);
  const event = await createTestEvent(user, { occasion: "birthday" });
  const media = [
    await addReadyMedia(event, "video", files, { name: "Ana", caption: "Happy birthday!", source: clipFile }),
    await addReadyMedia(event, "photo", files, { name: "Bo", caption: "Remember this?" }),
    await addReadyMedia(event, "video", files, { name: "Cy", source: speakingClip }),
  ];
  return { user, client, event, media };
}

async function waitForJob(id: string, done: (status: string) => boolean, timeout = 120_000) {
  let status: string | undefined;
  return until(
    async () => {
      const job = await findRenderJob(db(), id);
      status = job?.status;
      return job && done(job.status) ? job : null;
    },
    { timeout, what: () => `render ${id}, still ${status}` },
  );
}

async function renderAndWait(client: TestClient, event: Event, options: { resolution?: "720p" | "1080p" } = {}) {
  const started = await client.post("/api/publish/media", { eventId: event.id, resolution: options.resolution ?? "720p" });
  expect(started.status).toBe(202);
  const job = await waitForJob(started.body.data.id, (s) => s === "succeeded" || s === "failed" || s === "cancelled");
  expect(job.status, job.error ?? "").toBe("succeeded");
  return job;
}

/** The organiser's or staff's live feed of render progress, open until the test closes it. */
function listen(namespace: string, cookie: string) {
  const socket = connectSocket(`${server.url}${namespace}`, {
    transports: ["websocket"],
    extraHeaders: { cookie },
    reconnection: false,
    forceNew: true,
  });
  feeds.push(socket);
  const heard: { status: string; percent: number; eventUuid: string }[] = [];
  socket.on("render:progress", (update) => heard.push(update));
  const ready = new Promise<void>((resolve) => socket.on("session:ready", () => resolve()));
  return { socket, heard, ready };
}

// A render is the costly part of each test here. The tests that only look at what one render and
// publish left (the file, the recipient's page, the live progress, the package) share one, made by
// whichever of them runs first; so do the two that need a Chorus rendered twice.
let rendered: ReturnType<typeof renderOnce> | undefined;
let renderedTwice: ReturnType<typeof renderAgainAfterCaptionChange> | undefined;
const publishedChorus = () => (rendered ??= renderOnce());
const republishedChorus = () => (renderedTwice ??= renderAgainAfterCaptionChange());

/** An arranged Chorus rendered and published once, its organiser and staff listening from before the start. */
async function renderOnce() {
  const arranged = await arrangedEvent();
  const admin = await loggedInUser(server.url, "admin");
  const organiserFeed = listen("/users", arranged.client.cookieHeader());
  const staffFeed = listen("/staff", admin.client.cookieHeader());
  await Promise.all([organiserFeed.ready, staffFeed.ready]);
  const job = await renderAndWait(arranged.client, arranged.event);
  return { ...arranged, job, organiserFeed, staffFeed };
}

/** An arranged Chorus rendered, then rendered again after the photo's caption changed: two versions. */
async function renderAgainAfterCaptionChange() {
  const arranged = await arrangedEvent();
  const first = await renderAndWait(arranged.client, arranged.event);
  await updateMedia(db(), arranged.media[1]!.id, { caption: "Remember this summer?" });
  const second = await renderAndWait(arranged.client, arranged.event);
  return { ...arranged, first, second };
}

describe("rendering and publishing", { timeout: 240_000 }, () => {
  test("a render produces an MP4 whose length, frame size, rate and audio match the plan", async () => {
    const { event, job } = await publishedChorus();
    const plan = job.plan as RenderPlan;
    expect(plan.segments.map((s) => s.kind)).toEqual(["title", "clip", "photo", "clip", "title"]);

    const current = (await findEventById(db(), event.id))!;
    const [version] = await listPublishedVersions(db(), event.id);
    expect(current.publishedMedia).toBe(version!.id);
    const local = await storage().localCopy(version!.videoKey);
    const probe = await probeMedia(local.path);
    expect(probe.video).toMatchObject({ width: 1280, height: 720 });
    expect(probe.video!.frameRate).toBeCloseTo(30, 1);
    expect(probe.audio).toBeTruthy();
    expect(probe.duration).toBeCloseTo(plan.durationSeconds, 1);
    // Every frame is there: counted by decoding, not read from the header.
    const { stdout } = await run((await import("~/media/ffmpeg-paths.server")).ffprobePath(), [
      "-v",
      "error",
      "-count_frames",
      "-select_streams",
      "v:0",
      "-show_entries",
      "stream=nb_read_frames",
      "-of",
      "csv=p=0",
      local.path,
    ]);
    expect(Number(stdout.trim())).toBe(plan.totalFrames);
    // faststart: the index comes before the media data, so phones start playing at once.
    const head = await fs.readFile(local.path).then((b) => b.subarray(0, 64 * 1024).toString("latin1"));
    expect(head.indexOf("moov")).toBeGreaterThan(-1);
    expect(head.indexOf("moov")).toBeLessThan(Math.max(head.indexOf("mdat"), 0) || Infinity);
  });

  test("changing one caption re-renders only that scene's captioned part", async () => {
    const { event, first, second } = await republishedChorus();
    expect(first.piecesRendered).toBeGreaterThan(0);
    const before = first.plan as RenderPlan;
    const after = second.plan as RenderPlan;
    const photoBefore = before.segments.find((s) => s.kind === "photo")!;
    const photoAfter = after.segments.find((s) => s.kind === "photo")!;
    // Its head, tail and sound have no words: the crossfades beside it are reused.
    expect(photoAfter.key).toBe(photoBefore.key);
    const captioned = photoAfter.parts.filter((p) => p.kind === "caption");
    expect(captioned).toHaveLength(1);
    expect(captioned[0]!.key).not.toBe(photoBefore.parts.find((p) => p.kind === "caption")!.key);
    // The captioned part (and the plain part after it, when the new words take longer to read):
    // everything else is reused, the soundtrack too (a caption is not heard).
    const known = new Set(piecesOf(before).map((p) => p.key));
    const renewed = piecesOf(after).filter((p) => !known.has(p.key));
    expect(renewed.every((p) => p.scene === photoAfter.index && (p.kind === "caption" || p.kind === "plain"))).toBe(true);
    expect(second.piecesRendered).toBe(renewed.length);
    expect(after.soundtrackKey).toBe(before.soundtrackKey);
    expect(second.piecesReused).toBe(piecesOf(after).length - renewed.length);
    expect((await listPublishedVersions(db(), event.id)).map((v) => v.version)).toEqual([2, 1]);
  });

  test("restoring an earlier version puts it back on the recipient's link", async () => {
    const { client, event } = await republishedChorus();
    const [latest, earlier] = await listPublishedVersions(db(), event.id);
    expect((await findEventById(db(), event.id))!.publishedMedia).toBe(latest!.id);

    const restored = await client.put(`/api/v2/published-media/${earlier!.id}/restore`, {});
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ id: earlier!.id, version: 1, current: true });
    expect((await findEventById(db(), event.id))!.publishedMedia).toBe(earlier!.id);
    // Nothing was thrown away: both versions are still there to go back to.
    expect(await listPublishedVersions(db(), event.id)).toHaveLength(2);

    const stranger = await loggedInUser(server.url);
    expect((await stranger.client.put(`/api/v2/published-media/${latest!.id}/restore`, {})).status).toBe(404);
  });

  test("once paid for, the recipient's page plays the published video, answering range requests with 206", async () => {
    const { event } = await publishedChorus();
    // Before payment the recipient's link shows none of it (docs/decisions/045, video-before-payment.test.ts).
    await setEventPaid(db(), event.id, true);
    const recipient = new TestClient(server.url);
    const page = await recipient.get(`/e/${event.uuid}?privateKey=${event.privateKey}`);
    expect(page.status).toBe(200);
    const html = String(page.body);
    const src = /<source src="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
    expect(src).toMatch(/^\/videos\/[0-9a-f-]+\/video\?exp=/);
    expect(html).toMatch(/preload="metadata"/);
    expect(html).toMatch(/poster="\/videos\//);
    const ranged = await fetch(`${server.url}${src}`, { headers: { Range: "bytes=0-1023" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toMatch(/^bytes 0-1023\/\d+$/);
    expect((await ranged.arrayBuffer()).byteLength).toBe(1024);
    // A tampered link is refused.
    expect((await fetch(`${server.url}${src!.replace(/sig=[^&]+/, "sig=forged")}`)).status).toBe(404);
  });

  test("render jobs are for admins; publishing needs a finished render; strangers see nothing", async () => {
    // A Chorus of one photo: this is about who may start and publish a render, not what it shows.
    const { client, user } = await loggedInUser(server.url);
    const event = await createTestEvent(user, { occasion: "birthday" });
    await addReadyMedia(event, "photo", files, { name: "Bo", caption: "Remember this?" });
    expect((await client.post("/api/admin/renderjobs", { eventId: event.id })).status).toBe(403);
    const admin = await loggedInUser(server.url, "admin");
    const bad = await admin.client.post("/api/admin/renderjobs", { eventId: "not-a-uuid" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, error: { code: "VALIDATION_FAILED" } });
    const created = await admin.client.post("/api/admin/renderjobs", { eventId: event.id, resolution: "720p" });
    expect(created.status).toBe(201);
    // A second request while it runs answers the same render instead of starting another.
    const again = await admin.client.post("/api/admin/renderjobs", { eventId: event.id });
    expect(again.body.data.id).toBe(created.body.data.id);
    const early = await client.post(`/api/v2/render-jobs/${created.body.data.id}/publish`, {});
    expect([409, 200]).toContain(early.status);
    const job = await waitForJob(created.body.data.id, (s) => s === "succeeded");
    const stranger = await loggedInUser(server.url);
    expect((await stranger.client.post(`/api/v2/render-jobs/${job.id}/publish`, {})).status).toBe(404);
    const published = await client.post(`/api/v2/render-jobs/${job.id}/publish`, {});
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ renderJobId: job.id, current: true });
    // Publishing the same render twice keeps one version.
    await client.post(`/api/v2/render-jobs/${job.id}/publish`, {});
    expect(await listPublishedVersions(db(), event.id)).toHaveLength(1);
    void user;
  });

  test("a render can be cancelled by staff and publishes nothing", async () => {
    const { event, user } = await arrangedEvent();
    // A 1080p render (the premium finish's, included with a membership) is long enough to catch.
    await makeMember(user);
    const admin = await loggedInUser(server.url, "admin");
    const created = await admin.client.post("/api/admin/renderjobs", { eventId: event.id, resolution: "1080p", publish: true });
    const cancelled = await admin.client.delete(`/api/admin/renderjobs/${created.body.data.id}`);
    expect(cancelled.status).toBe(200);
    const job = await waitForJob(created.body.data.id, (s) => s === "cancelled" || s === "succeeded", 60_000);
    expect(job.status).toBe("cancelled");
    expect(await listPublishedVersions(db(), event.id)).toHaveLength(0);
    expect((await admin.client.delete(`/api/admin/renderjobs/${job.id}`)).status).toBe(409);
  });

  test("admins stop a render from the admin page with a plain form; other staff see no Stop button", async () => {
    const { event, user } = await arrangedEvent();
    await makeMember(user);
    const admin = await loggedInUser(server.url, "admin");
    const editor = await loggedInUser(server.url, "editor");
    const created = await admin.client.post("/api/admin/renderjobs", { eventId: event.id, resolution: "1080p" });
    const id: string = created.body.data.id;
    // Its Stop form (a stopped render offers "Try again" under the same job id instead).
    const stopButton = new RegExp(`value="stop-render"/><button[^>]*name="jobId" value="${id}"`);
    expect(await (await admin.client.raw("GET", "/admin")).text()).toMatch(stopButton);
    const editorPage = await (await editor.client.raw("GET", "/admin")).text();
    expect(editorPage).toContain(id);
    expect(editorPage).not.toMatch(stopButton);

    // A form sent by hand by someone who is not an admin stops nothing.
    const refused = await editor.client.form("/admin", { intent: "stop-render", jobId: id });
    expect(refused.status).toBe(403);
    expect((await findRenderJob(db(), id))!.cancelRequestedAt).toBeNull();
    expect((await admin.client.form("/admin", { intent: "stop-render", jobId: "nope" })).status).toBe(400);

    const stopped = await admin.client.form("/admin", { intent: "stop-render", jobId: id });
    expect(stopped.status).toBe(200);
    expect(await stopped.text()).toMatch(/The render (was cancelled|is stopping)\./);
    const job = await waitForJob(id, (s) => s === "cancelled" || s === "succeeded", 60_000);
    expect(job.status).toBe("cancelled");
    // Stopped once: the page offers no second Stop, and a second submit says why.
    expect(await (await admin.client.raw("GET", "/admin")).text()).not.toMatch(stopButton);
    expect((await admin.client.form("/admin", { intent: "stop-render", jobId: id })).status).toBe(409);
  });

  test("progress reaches the organiser and staff live, ending at 100%", async () => {
    const { event, organiserFeed, staffFeed } = await publishedChorus();
    // Staff hear every Chorus's renders (an earlier test's cancelled one may still report); the
    // organiser hears only their own.
    const ofThisEvent = (feed: typeof staffFeed) => feed.heard.filter((u) => u.eventUuid === event.uuid);
    await expect.poll(() => ofThisEvent(staffFeed).at(-1)?.status).toBe("succeeded");
    expect(organiserFeed.heard.every((u) => u.eventUuid === event.uuid)).toBe(true);
    for (const feed of [organiserFeed, staffFeed]) {
      expect(ofThisEvent(feed).map((u) => u.status)).toContain("running");
      expect(ofThisEvent(feed).at(-1)).toMatchObject({ status: "succeeded", percent: 100 });
      feed.socket.close();
    }
  });

  test("an event with nothing ready cannot be rendered, with a clear reason", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createTestEvent(user);
    const reply = await client.post("/api/publish/media", { eventId: event.id });
    expect(reply.status).toBe(400);
    expect(reply.body.error.message).toMatch(/no contribution is ready/);
  });

  test("the package zip streams the originals, the video and the messages, to administrators only", async () => {
    const { client, event, media } = await publishedChorus();
    const admin = await loggedInUser(server.url, "admin");
    const zipFile = files.path(`${event.id}.zip`);
    const response = await fetch(`${server.url}/api/admin/choruspackage/${event.id}`, { headers: { cookie: admin.client.cookieHeader() } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    await fs.writeFile(zipFile, Buffer.from(await response.arrayBuffer()));
    const { stdout } = await run("unzip", ["-Z1", zipFile]);
    const names = stdout.trim().split("\n");
    expect(names).toContain("chorus-video.mp4");
    expect(names).toContain("messages.txt");
    expect(names.filter((n) => n.startsWith("originals/"))).toHaveLength(media.length);
    // Originals come out byte for byte as they were uploaded.
    const { stdout: listing } = await run("unzip", ["-p", zipFile, names.find((n) => n.startsWith("originals/001"))!], {
      encoding: "buffer",
      maxBuffer: 1 << 26,
    });
    const original = await storage().localCopy(media[0]!.originalKey);
    expect(crypto.createHash("sha256").update(listing).digest("hex")).toBe(
      crypto
        .createHash("sha256")
        .update(await fs.readFile(original.path))
        .digest("hex"),
    );
    // Not its organiser (spec §6: an admin-only route), nor anyone else.
    for (const someone of [client, (await loggedInUser(server.url)).client]) {
      expect(
        (await fetch(`${server.url}/api/admin/choruspackage/${event.id}`, { headers: { cookie: someone.cookieHeader() } })).status,
      ).toBe(403);
    }
  });
});

export type { Media, User };
