import fs from "node:fs/promises";
import type { Event, PublishedMedia } from "drizzle/schema";
import { events } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { dropSingleton } from "~/lib/singleton.server";
import { probeMedia } from "~/media/probe.server";
import { runFfmpeg } from "~/media/run.server";
import { insertRecipient, setEventPaid } from "~/models/event.server";
import { findPublishedMedia, listPublishedVersions } from "~/models/published-media.server";
import { playlistInit, playlistSegments } from "~/render/hls-playlists";
import { storage } from "~/services/media/storage.server";
import type { RunningServer } from "../../server";
import { makeClip, makeTempDir } from "../media/support/media-fixtures";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { renderSucceeded, untilJobsFinished } from "../support/jobs";
import { makeMember } from "../support/payments";
import { addReadyMedia } from "../support/ready-media";
import { startSmtpSink } from "../support/smtp-sink";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// A published video gets an HLS ladder right after it is published (docs/decisions/036): made at
// 1080p here, so every rung is there, from a few seconds of video.

let server: RunningServer;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let clipFile: string;

// Short stills and title cards keep the render to a few seconds of video on two cores.
const SETTINGS = { JOB_POLL_SECONDS: "0.5", RENDER_PHOTO_SECONDS: "2", RENDER_TITLE_SECONDS: "1.5", JOB_RETRY_DELAY_SECONDS: "1" };

beforeAll(async () => {
  files = await makeTempDir("video-ladder");
  dropSingleton("storage");
  smtp = await startSmtpSink();
  server = await startTestServer({ ...SETTINGS, VIDEO_LADDER: "true", SMTP_URL: smtp.url, DATA_DIR: files.path("data") });
  clipFile = await makeClip(files.path("clip.mp4"), { seconds: 2, width: 640, height: 360 });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
  dropSingleton("storage");
  await files?.remove();
});

/**
 * Renders and publishes the event at 1080p; answers the version and how long the render took.
 * `whileLadderMade` runs once the MP4 is published, while its ladder is being made.
 */
async function publishAndWaitForLadder(client: TestClient, event: Event, whileLadderMade?: (version: PublishedMedia) => Promise<void>) {
  const started = await client.post("/api/publish/media", { eventId: event.id, resolution: "1080p" });
  expect(started.status).toBe(202);
  const job = await renderSucceeded(started.body.data.id);
  const [version] = await listPublishedVersions(db(), event.id);
  // The MP4 is published, and playable, before the ladder is made.
  expect(version!.renderJobId).toBe(job.id);
  await whileLadderMade?.(version!);
  // Waits for the ladder job of this version: ffmpeg encoding three rungs of a few seconds.
  const [ladderJob] = await untilJobsFinished("video-ladder", { data: { publishedMediaId: version!.id } }, { timeout: 120_000 });
  expect(ladderJob!.state).toBe("completed");
  const withLadder = (await findPublishedMedia(db(), version!.id))!;
  const renderSeconds = (job.finishedAt!.getTime() - job.startedAt!.getTime()) / 1000;
  return { version: withLadder, renderSeconds };
}

/** The master playlist link the recipient's page hands out. */
async function streamUrlOnRecipientPage(event: Event, version: PublishedMedia) {
  const page = await new TestClient(server.url).get(`/e/${event.uuid}?privateKey=${event.privateKey}`);
  expect(page.status).toBe(200);
  const html = String(page.body)
    .replace(/\\u0026/g, "&")
    .replace(/&amp;/g, "&");
  const url = new RegExp(`/videos/${version.id}/hls/master\\.m3u8\\?exp=\\d+&sig=[\\w-]+`).exec(html)?.[0];
  expect(url, "the page names the master playlist").toBeTruthy();
  // Without JavaScript the <video> still plays the MP4, fetching only its metadata before play.
  expect(html).toMatch(/<source src="\/videos\/[0-9a-f-]+\/video\?exp=/);
  expect(html).toMatch(/preload="metadata"/);
  return url!;
}

const get = (path: string, headers: Record<string, string> = {}) => new TestClient(server.url).raw("GET", path, { headers });

describe("the HLS ladder of a published video", { timeout: 420_000 }, () => {
  test("publishing makes a ladder of fMP4 rungs up to 1080p, aligned, playable, served under the MP4's rules", async () => {
    const { user, client } = await loggedInUser(server.url);
    await makeMember(user);
    const event = await createTestEvent(user, { occasion: "birthday" });
    await addReadyMedia(event, "video", files, { name: "Ana", caption: "Happy birthday!", source: clipFile });
    await addReadyMedia(event, "photo", files, { name: "Bo", caption: "Remember this?" });

    const email = `ana-${crypto.randomUUID()}@example.com`;
    await insertRecipient(db(), event.id, { firstName: "Ana", lastName: "", email, phone: null });
    await setEventPaid(db(), event.id, true);

    // Delivered right after publishing: the recipient's link waits until the video can stream.
    const { version, renderSeconds } = await publishAndWaitForLadder(client, event, async (published) => {
      expect(published.ladder).toBeNull();
      const delivered = await client.post(`/api/v2/events/${event.id}/deliver`, {});
      expect(delivered.status).toBe(200);
      expect(delivered.body.data).toEqual({ scheduledFor: null, waitsForStream: true });
      await until(
        async () => {
          const ladderMade = !!(await findPublishedMedia(db(), published.id))?.ladder;
          if (!ladderMade) expect(smtp.to(email), "no link before the ladder").toHaveLength(0);
          return ladderMade;
        },
        { timeout: 120_000, interval: 250, what: "the ladder, with no link sent meanwhile" },
      );
    });
    await expect.poll(() => smtp.to(email).length, { timeout: 30_000 }).toBe(1);
    const ladder = version.ladder!;
    expect(ladder.rungs.map((r) => [r.name, r.width, r.height])).toEqual([
      ["360p", 640, 360],
      ["540p", 960, 540],
      ["720p", 1280, 720],
      ["1080p", 1920, 1080],
    ]);
    console.info(
      `ladder of a 1080p video of ${version.durationSeconds?.toFixed(1)} s: ${ladder.seconds} s, beside its render's ${renderSeconds.toFixed(1)} s`,
    );
    // Nothing was prepared ahead here: made one by one, the rung pieces would take longer than the
    // ladder from the MP4, which it is made from.
    expect(ladder.rungPieces).toBeUndefined();

    const masterUrl = await streamUrlOnRecipientPage(event, version);
    const master = await get(masterUrl);
    expect(master.status).toBe(200);
    expect(master.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    const masterText = await master.text();
    const query = masterUrl.slice(masterUrl.indexOf("?") + 1);
    const variants = [...masterText.matchAll(/#EXT-X-STREAM-INF:([^\n]+)\n([^\n]+)/g)].map((m) => ({ attributes: m[1]!, uri: m[2]! }));
    expect(variants).toHaveLength(4);
    const base = `/videos/${version.id}/hls/`;
    const durations: number[][] = [];
    for (const [i, variant] of variants.entries()) {
      const rung = ladder.rungs[i]!;
      expect(variant.attributes).toMatch(/BANDWIDTH=\d+/);
      expect(variant.attributes).toContain(`RESOLUTION=${rung.width}x${rung.height}`);
      expect(variant.attributes).toMatch(/CODECS="avc1\.64[0-9a-f]{4},mp4a\.40\.2"/);
      // Every address in a playlist carries the signature of the link it was fetched by.
      expect(variant.uri).toBe(`${rung.name}.m3u8?${query}`);

      const playlistResponse = await get(base + variant.uri);
      expect(playlistResponse.status).toBe(200);
      const playlist = await playlistResponse.text();
      expect(playlist).toContain("#EXT-X-PLAYLIST-TYPE:VOD");
      expect(playlist).toContain("#EXT-X-ENDLIST");
      const segments = playlistSegments(playlist);
      durations.push(segments.map((s) => s.seconds));
      const init = playlistInit(playlist)!;
      expect(init).toBe(`${rung.name}_init.mp4?${query}`);

      // The rung's init file and segments, fetched as a player does, joined, must decode whole.
      const initResponse = await get(base + init);
      expect(initResponse.headers.get("content-type")).toBe("video/mp4");
      const parts = [Buffer.from(await initResponse.arrayBuffer())];
      for (const segment of segments) {
        const response = await get(base + segment.uri);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("video/iso.segment");
        expect(response.headers.get("cache-control")).toContain("immutable");
        parts.push(Buffer.from(await response.arrayBuffer()));
      }
      const joined = files.path(`${rung.name}.mp4`);
      await fs.writeFile(joined, Buffer.concat(parts));
      const probe = await probeMedia(joined);
      expect(probe.video).toMatchObject({ width: rung.width, height: rung.height });
      expect(probe.audio).toBeTruthy();
      expect(probe.duration).toBeCloseTo(version.durationSeconds!, 0);
      // Decoded to the end: an error in any segment fails the run.
      await runFfmpeg(["-v", "error", "-xerror", "-i", joined, "-f", "null", "-"]);
    }
    // Segments of about four seconds, cut at the same frames in every rung: a player switching
    // rungs between two segments neither skips nor repeats a moment.
    expect(durations[0]!.length).toBeGreaterThan(1);
    expect(Math.max(...durations[0]!)).toBeLessThanOrEqual(6.1);
    for (const other of durations.slice(1)) {
      expect(other).toHaveLength(durations[0]!.length);
      other.forEach((seconds, i) => expect(seconds).toBeCloseTo(durations[0]![i]!, 1));
    }
    // The lower rungs cost less, so a slow link gets one.
    const bandwidths = ladder.rungs.map((r) => r.bandwidth);
    expect([...bandwidths].sort((a, b) => a - b)).toEqual(bandwidths);

    // A range of a segment, as a player may ask.
    const firstSegment = `${base}360p_0000.m4s?${query}`;
    const ranged = await get(firstSegment, { Range: "bytes=0-99" });
    expect(ranged.status).toBe(206);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);

    // Links that were not handed out, and files the ladder does not have, are not found.
    expect((await get(masterUrl.replace(/sig=[^&]+/, "sig=forged"))).status).toBe(404);
    expect((await get(`${base}master.m3u8`)).status).toBe(404);
    expect((await get(`${base}video.mp4?${query}`)).status).toBe(404);
    expect((await get(`/videos/${crypto.randomUUID()}/hls/master.m3u8?${query}`)).status).toBe(404);

    // A Chorus taken down withholds its ladder as it withholds its MP4.
    await db().update(events).set({ takenDownAt: new Date() }).where(eq(events.id, event.id));
    expect((await get(masterUrl)).status).toBe(410);
    expect((await get(firstSegment)).status).toBe(410);
    await db().update(events).set({ takenDownAt: null }).where(eq(events.id, event.id));
    expect((await get(firstSegment)).status).toBe(200);

    // Publishing again gives the new version a ladder of its own; the earlier one keeps its ladder.
    const again = await publishAndWaitForLadder(client, event);
    expect(again.version.id).not.toBe(version.id);
    expect(again.version.ladder!.folder).not.toBe(ladder.folder);
    expect(again.version.ladder!.rungPieces).toBeUndefined();
    expect((await get(masterUrl)).status).toBe(200);
    expect(await storage().stat(`${ladder.folder}/360p_0000.m4s`)).not.toBeNull();

    // The current version cannot be deleted; an earlier one goes with its ladder.
    const arrange = `/e/${event.uuid}/arrange`;
    expect((await client.form(arrange, { intent: "version-delete", versionId: again.version.id })).status).toBe(409);
    const stranger = await loggedInUser(server.url);
    expect((await stranger.client.form(arrange, { intent: "version-delete", versionId: version.id })).status).toBeGreaterThanOrEqual(400);
    expect(await findPublishedMedia(db(), version.id)).not.toBeNull();
    const deleted = await client.form(arrange, { intent: "version-delete", versionId: version.id });
    expect(deleted.status).toBe(302);
    expect(await findPublishedMedia(db(), version.id)).toBeNull();
    for (const file of ladder.files) expect(await storage().stat(`${ladder.folder}/${file}`), file).toBeNull();
    expect((await get(masterUrl)).status).toBe(404);
    expect(await storage().stat(`${again.version.ladder!.folder}/master.m3u8`)).not.toBeNull();
    // Its MP4 is its render's, and stays with it.
    expect(await storage().stat(version.videoKey)).not.toBeNull();
  });
});
