import fs from "node:fs/promises";
import { publishedMedia, type PublishedMedia } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { dropSingleton } from "~/lib/singleton.server";
import { runFfmpeg } from "~/media/run.server";
import { findPublishedMedia, listPublishedVersions } from "~/models/published-media.server";
import { deleteRenderPiece, findRenderPiece, findStoredRenderPieceKeys } from "~/models/render-piece.server";
import { playlistInit, playlistSegments } from "~/render/hls-playlists";
import { rungFiles } from "~/render/ladder";
import { countVideoFrames } from "~/render/pieces";
import { piecesOf, type RenderPlan } from "~/render/plan";
import { plannedRungPieces } from "~/render/rung-pieces.server";
import { storage } from "~/services/media/storage.server";
import { nextRender, preparedPieces } from "~/services/render/next-render.server";
import { makeVideoLadder } from "~/services/render/video-ladder.server";
import type { RunningServer } from "../../server";
import { makeClip, makeTempDir } from "../media/support/media-fixtures";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { renderSucceeded, untilJobsFinished } from "../support/jobs";
import { addReadyMedia } from "../support/ready-media";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// The ladder of a published version made from its render's rung pieces (docs/decisions/036): each
// piece at each smaller size, made ahead by preparation once the full-size pieces are there, so
// the ladder job only joins them; and, with a piece swept, from the MP4 as before. At 720p (360p
// and 540p made from pieces, 720p copied), from a few seconds of video.

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let clipFile: string;

const SETTINGS = {
  JOB_POLL_SECONDS: "0.5",
  RENDER_PHOTO_SECONDS: "2",
  RENDER_TITLE_SECONDS: "1.5",
  JOB_RETRY_DELAY_SECONDS: "1",
  RENDER_AHEAD: "true",
  VIDEO_LADDER: "true",
};

beforeAll(async () => {
  files = await makeTempDir("video-ladder-pieces");
  dropSingleton("storage");
  server = await startTestServer({ ...SETTINGS, DATA_DIR: files.path("data") });
  clipFile = await makeClip(files.path("clip.mp4"), { seconds: 2, width: 640, height: 360 });
});
afterAll(async () => {
  await server?.close();
  dropSingleton("storage");
  await files?.remove();
});

/** A stored file as a local path for ffmpeg. */
async function local(key: string) {
  const copy = await storage().localCopy(key);
  return copy.path;
}

/**
 * Every rung of the version's ladder, read from storage as a player gets it (init file and segments
 * one after another): each decodes to the end, holds as many frames as the MP4, and is cut into
 * segments of the same durations as every other rung. Answers the rungs' segment durations.
 */
async function expectRungsPlayThrough(version: PublishedMedia) {
  const ladder = version.ladder!;
  const mp4Frames = await countVideoFrames(await local(version.videoKey));
  expect(mp4Frames).toBeGreaterThan(0);
  const durations: number[][] = [];
  for (const rung of ladder.rungs) {
    const names = rungFiles(rung.name);
    const playlist = await fs.readFile(await local(`${ladder.folder}/${names.playlist}`), "utf8");
    const segments = playlistSegments(playlist);
    durations.push(segments.map((s) => s.seconds));
    const parts = [await fs.readFile(await local(`${ladder.folder}/${playlistInit(playlist)!}`))];
    for (const segment of segments) parts.push(await fs.readFile(await local(`${ladder.folder}/${segment.uri}`)));
    const joined = files.path(`${version.id}-${rung.name}.mp4`);
    await fs.writeFile(joined, Buffer.concat(parts));
    expect(await countVideoFrames(joined), `${rung.name}: frames`).toBe(mp4Frames);
    await runFfmpeg(["-v", "error", "-xerror", "-i", joined, "-f", "null", "-"]);
  }
  // Players switch rungs at segment boundaries: every rung's are at the same frames.
  expect(durations[0]!.length).toBeGreaterThan(1);
  for (const other of durations.slice(1)) {
    expect(other).toHaveLength(durations[0]!.length);
    other.forEach((seconds, i) => expect(seconds).toBeCloseTo(durations[0]![i]!, 2));
  }
  return durations;
}

describe("the HLS ladder made from rung pieces", { timeout: 420_000 }, () => {
  test("preparation makes the rung pieces; the ladder job only joins them; with a piece swept it is made from the MP4", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createTestEvent(user, { occasion: "birthday" });
    await addReadyMedia(event, "video", files, { name: "Ana", caption: "Happy birthday!", source: clipFile });
    await addReadyMedia(event, "photo", files, { name: "Bo", caption: "Remember this?" });
    const { plan } = await nextRender(event);
    expect(plan.profile.resolution).toBe("720p");
    const rungPieces = plannedRungPieces(plan);
    // Each scene's parts and each crossfade: intro, clip (captioned and plain), photo, outro, three crossfades.
    expect(rungPieces.length).toBeGreaterThanOrEqual(7);

    // Nobody asked: the items becoming ready queued preparation, which queued the rung pieces once
    // every full-size piece was made.
    await until(
      async () =>
        (
          await findStoredRenderPieceKeys(
            db(),
            rungPieces.map((p) => p.rungKey),
          )
        ).size === rungPieces.length,
      { timeout: 300_000, interval: 500, what: "the rung pieces made ahead" },
    );
    // They are not what the render panel counts, and do not time its estimate.
    expect(await preparedPieces(plan)).toMatchObject({ reusable: piecesOf(plan).length, pieces: piecesOf(plan).length });
    const stored = await findRenderPiece(db(), rungPieces[0]!.rungKey);
    expect(stored).toMatchObject({ kind: "rungs", renderSeconds: null, resolution: null });
    expect(Object.keys(stored!.files).sort()).toEqual(["360p", "540p"]);

    const started = await client.post("/api/publish/media", { eventId: event.id });
    expect(started.status).toBe(202);
    const job = await renderSucceeded(started.body.data.id);
    expect((job.plan as RenderPlan).hash).toBe(plan.hash);
    const [published] = await listPublishedVersions(db(), event.id);
    const [ladderJob] = await untilJobsFinished("video-ladder", { data: { publishedMediaId: published!.id } }, { timeout: 120_000 });
    expect(ladderJob!.state).toBe("completed");
    const version = (await findPublishedMedia(db(), published!.id))!;
    const ladder = version.ladder!;
    // Every rung piece was made ahead: the ladder job made none.
    expect(ladder.rungPieces).toEqual({ made: 0, reused: rungPieces.length });
    expect(ladder.rungs.map((r) => [r.name, r.width, r.height])).toEqual([
      ["360p", 640, 360],
      ["540p", 960, 540],
      ["720p", 1280, 720],
    ]);
    const fromPieces = await expectRungsPlayThrough(version);
    console.info(`ladder of a 720p video of ${version.durationSeconds?.toFixed(1)} s from rung pieces made ahead: ${ladder.seconds} s`);

    // A piece of the render is swept (unused for long): the ladder, made again, comes from the MP4.
    const swept = rungPieces[1]!;
    const row = (await findRenderPiece(db(), swept.key))!;
    await deleteRenderPiece(db(), swept.key);
    for (const key of Object.values(row.files)) await storage().delete(key);
    await db().update(publishedMedia).set({ ladder: null }).where(eq(publishedMedia.id, version.id));
    await makeVideoLadder(version.id);
    const again = (await findPublishedMedia(db(), version.id))!;
    expect(again.ladder).not.toBeNull();
    expect(again.ladder!.rungPieces).toBeUndefined();
    expect(again.ladder!.rungs.map((r) => r.name)).toEqual(["360p", "540p", "720p"]);
    const fromMp4 = await expectRungsPlayThrough(again);
    // Cut at the same frames either way: the MP4's own key frames.
    expect(fromMp4).toHaveLength(fromPieces.length);
    console.info(`the same ladder from the MP4: ${again.ladder!.seconds} s`);
  });
});
