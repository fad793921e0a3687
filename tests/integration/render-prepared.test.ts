import type { Event } from "drizzle/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { resetEnvCache } from "~/lib/env.server";
import { dropSingleton } from "~/lib/singleton.server";
import { insertMedia, updateMedia } from "~/models/media.server";
import { listRenderJobsOfEvent } from "~/models/render-job.server";
import { findRenderPiece, findStoredRenderPieceKeys } from "~/models/render-piece.server";
import { findThemeBySlug } from "~/models/theme.server";
import { findTrackBySlug } from "~/models/track.server";
import { piecesOf, type RenderPlan } from "~/render/plan";
import { abandonMedia } from "~/services/media/media-processing.server";
import { nextRender, preparedPieces } from "~/services/render/next-render.server";
import { prepareEventPieces } from "~/services/render/piece-preparation.server";
import type { RunningServer } from "../../server";
import { makeClip, makeTempDir } from "../media/support/media-fixtures";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import type { TestClient } from "../support/http-client";
import { renderSucceeded } from "../support/jobs";
import { addReadyMedia } from "../support/ready-media";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// What the render panel promises ("a render now reuses N of its M pieces") is what the next render
// reports, whichever way it is started; the render-ahead job makes every piece but the join after
// any change, drops what a newer change no longer uses, and a render never makes a piece the
// render-ahead job is making: it waits for it.

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let clipFile: string;

// Short stills and title cards keep each render to a few seconds of video on two cores.
const SETTINGS = {
  JOB_POLL_SECONDS: "0.5",
  RENDER_PHOTO_SECONDS: "2",
  RENDER_TITLE_SECONDS: "1.5",
  JOB_RETRY_DELAY_SECONDS: "1",
  RENDER_AHEAD: "true",
};

beforeAll(async () => {
  files = await makeTempDir("render-prepared");
  dropSingleton("storage");
  server = await startTestServer({ ...SETTINGS, DATA_DIR: files.path("data") });
  clipFile = await makeClip(files.path("clip.mp4"), { seconds: 2, audio: false });
});
afterAll(async () => {
  await server?.close();
  dropSingleton("storage");
  await files?.remove();
});

const textOf = async (response: Response) =>
  (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

/** The render panel's promise, read off the arrange page as a browser without JavaScript gets it. */
async function panelOf(client: TestClient, event: Event) {
  const page = await textOf(await client.raw("GET", `/e/${event.uuid}/arrange`));
  const scenes = /(\d+) of (\d+) scenes \(the opening and closing cards too\) are already rendered\./.exec(page);
  const reuse = /A render now reuses (\d+) of its (\d+) pieces/.exec(page);
  if (!scenes || !reuse) throw new Error("The render panel does not say what is prepared.");
  return { page, scenesPrepared: Number(scenes[1]), scenes: Number(scenes[2]), reusable: Number(reuse[1]), pieces: Number(reuse[2]) };
}

/** An organiser's Chorus with a clip, a photo and another clip, each ready as processing leaves it. */
async function arrangedEvent() {
  const { user, client } = await loggedInUser(server.url);
  const event = await createTestEvent(user, { occasion: "birthday" });
  const media = [
    await addReadyMedia(event, "video", files, { name: "Ana", caption: "Happy birthday!", source: clipFile }),
    await addReadyMedia(event, "photo", files, { name: "Bo", caption: "Remember this?" }),
    await addReadyMedia(event, "video", files, { name: "Cy", source: clipFile }),
  ];
  return { user, client, event, media };
}

// Preparing a Chorus's pieces is the costly part of each test here. All but the theme change's test
// change one thing (nothing, a caption, the music, a late photo they hide again) of the same prepared
// Chorus, made by whichever of them runs first, and each starts once everything it has is prepared
// again, whatever ran before.
let prepared: ReturnType<typeof prepareOnce> | undefined;
const preparedChorus = () => (prepared ??= prepareOnce());

/** An arranged Chorus whose pieces the render-ahead job has made by itself: nobody asked. */
async function prepareOnce() {
  const arranged = await arrangedEvent();
  await allPiecesPrepared(arranged.client, arranged.event);
  return arranged;
}

/** Waits until the render-ahead job has made every piece of the next render, as the panel tells it. */
const allPiecesPrepared = (client: TestClient, event: Event) =>
  until(
    async () => {
      const panel = await panelOf(client, event);
      return panel.reusable === panel.pieces ? panel : null;
    },
    { timeout: 300_000, interval: 500, what: "the render-ahead job to make every piece" },
  );

/** Render-ahead off while `work` runs: what is prepared then is only what the test itself asks for. */
async function withoutRenderAhead<T>(work: () => Promise<T>) {
  process.env.RENDER_AHEAD = "false";
  resetEnvCache();
  try {
    return await work();
  } finally {
    process.env.RENDER_AHEAD = "true";
    resetEnvCache();
  }
}

/** The event's newest render once there is one other than `earlier` (a render an earlier test started). */
async function latestRender(event: Event, earlier?: string) {
  const [job] = await until(
    async () => {
      const jobs = await listRenderJobsOfEvent(db(), event.id, 1);
      return jobs.length && jobs[0]!.id !== earlier ? jobs : null;
    },
    { what: "the render to be queued" },
  );
  return job!;
}

describe("what the render panel promises is what the render reuses", { timeout: 600_000 }, () => {
  test("after the items are ready every piece but the join is made ahead by itself, and a render from the page reuses them all", async () => {
    // Nobody asked: the items becoming ready queued the render-ahead job.
    const { client, event } = await preparedChorus();
    const panel = await allPiecesPrepared(client, event);
    // Five scenes of two pieces each (its head, tail and sound, and its own frames: every item here is
    // shorter than its text box's reading time, so all captioned), four crossfades, one soundtrack.
    expect(panel).toMatchObject({ scenesPrepared: 5, scenes: 5, reusable: 15, pieces: 15 });
    expect(panel.page).toContain("A render now reuses 15 of its 15 pieces: only joining them is left.");

    // The page's own form, as sent without JavaScript: the 720p this Chorus has, published when done.
    const [earlier] = await listRenderJobsOfEvent(db(), event.id, 1);
    const started = await client.form(`/e/${event.uuid}/arrange`, { intent: "render-start", resolution: "720p", publish: "on" });
    expect(started.status).toBe(302);
    const done = await renderSucceeded((await latestRender(event, earlier?.id)).id);
    // Nothing changed since the preparation: the render made only the join.
    expect(done.piecesReused).toBe(15);
    expect(done.piecesRendered).toBe(0);
    expect((await panelOf(client, event)).page).toContain("15 pieces reused, 0 rendered");
  });

  test("a caption change: the page says what is left and how long it takes here; POST /api/publish/media reuses what it says", async () => {
    const { client, event, media } = await preparedChorus();
    await allPiecesPrepared(client, event);

    // Read before the render-ahead job, which would start a second after the change, has run.
    const before = await withoutRenderAhead(async () => {
      const changed = await client.put(`/api/v2/media/${media[1]!.id}`, { caption: "Remember this summer?" });
      expect(changed.status).toBe(200);
      return panelOf(client, event);
    });
    // The photo's captioned part is new, and nothing else (its crossfades are made from its head and
    // tail, which have no words; the sound is the same).
    expect(before).toMatchObject({ scenesPrepared: 4, scenes: 5, reusable: 14, pieces: 15 });
    const estimate =
      /makes 1 scene\. That takes about (\d+) (s|min) on this server, going by how fast it rendered its latest pieces\./.exec(before.page);
    expect(
      estimate,
      before.page.slice(before.page.indexOf("already rendered") - 80, before.page.indexOf("already rendered") + 400),
    ).not.toBeNull();
    expect(Number(estimate![1])).toBeGreaterThan(0);

    // The job makes the changed part by itself; the API's render joins them.
    await prepareEventPieces(event.id);
    const ready = await panelOf(client, event);
    expect(ready).toMatchObject({ reusable: 15, pieces: 15 });
    const again = await client.post("/api/publish/media", { eventId: event.id });
    expect(again.status).toBe(202);
    const done = await renderSucceeded(again.body.data.id);
    expect(done.piecesReused).toBe(ready.reusable);
    expect(done.piecesRendered).toBe(0);
  });

  test("a music change queues preparation: the new soundtrack is made before anyone publishes", async () => {
    const { client, event } = await preparedChorus();
    await allPiecesPrepared(client, event);
    const rendersBefore = await listRenderJobsOfEvent(db(), event.id, 1);
    const track = await until(
      async () => {
        const found = await findTrackBySlug(db(), "warm-sunday");
        return found?.status === "ready" ? found : null;
      },
      { timeout: 90_000, what: "the built-in track warm-sunday to be prepared" },
    );

    const chosen = await client.form(`/e/${event.uuid}/arrange`, { intent: "music-choose", trackId: track.id });
    expect(chosen.status).toBe(302);
    const { plan } = await nextRender(event);
    expect(plan.music).not.toBeNull();
    // Only the soundtrack is new, and nobody but the render-ahead job makes it.
    expect(await preparedPieces(plan)).toMatchObject({
      reusable: 14,
      pieces: 15,
      remaining: { scenes: 0, crossfades: 0, soundtrack: true },
    });
    await allPiecesPrepared(client, event);
    expect(await findRenderPiece(db(), plan.soundtrackKey)).not.toBeNull();
    expect(await listRenderJobsOfEvent(db(), event.id, 1)).toEqual(rendersBefore);
  });

  test("while a contribution is still being processed the soundtrack and the closing card wait: the last one, ready or failed, has them made", async () => {
    const { client, event } = await preparedChorus();
    await allPiecesPrepared(client, event);
    const { pending, late } = await withoutRenderAhead(async () => {
      // One upload still to be processed, and a photo that arrived ready meanwhile.
      const pending = await insertMedia(db(), {
        eventId: event.id,
        purpose: "contribution",
        originalKey: `events/${event.id}/media/pending/original.mp4`,
        originalName: "still-coming.mp4",
        mimeType: "video/mp4",
        sizeBytes: 1_000,
        uploadId: crypto.randomUUID(),
      });
      const late = await addReadyMedia(event, "photo", files, { name: "Di", caption: "Late but here" });
      const { plan } = await nextRender(event);
      await prepareEventPieces(event.id);
      // The photo's scene and its crossfade from the one before are made. The sound, the closing card
      // (which now names Di) and the crossfade into it wait for the upload still being processed.
      const outro = plan.segments.at(-1)!;
      expect(await preparedPieces(plan)).toMatchObject({ remaining: { scenes: 1, crossfades: 1, soundtrack: true } });
      expect(await findRenderPiece(db(), plan.soundtrackKey)).toBeNull();
      expect(await findRenderPiece(db(), outro.key)).toBeNull();
      expect(await findRenderPiece(db(), plan.segments.at(-2)!.key)).not.toBeNull();
      return { pending: await updateMedia(db(), pending.id, { status: "processing" }), late };
    });
    try {
      // Its processing fails for good: nothing more is coming, and the preparation it queues makes the rest.
      await abandonMedia(pending!.id);
      const { plan } = await nextRender(event);
      await allPiecesPrepared(client, event);
      expect(await findRenderPiece(db(), plan.soundtrackKey)).not.toBeNull();
      expect(await findRenderPiece(db(), plan.segments.at(-1)!.key)).not.toBeNull();
    } finally {
      // The shared Chorus is back to the five scenes the other tests count.
      await updateMedia(db(), late.id, { hidden: true });
      await updateMedia(db(), pending!.id, { archivedAt: new Date() });
    }
  });

  test("a preparation overtaken by a theme change stops making the scenes the new theme no longer uses", async () => {
    const { client, event } = await withoutRenderAhead(async () => {
      const arranged = await arrangedEvent();
      for (const name of ["Di", "Ed", "Flo"]) await addReadyMedia(arranged.event, "photo", files, { name, caption: `From ${name}` });
      return arranged;
    });
    const { plan: old } = await nextRender(event);
    const preparing = prepareEventPieces(event.id);
    // One scene made: the preparation is well under way when the organiser tries another theme.
    await until(async () => ((await preparedPieces(old)).reusable > 0 ? true : null), {
      timeout: 120_000,
      interval: 100,
      what: "the first piece of the preparation",
    });
    const ivory = (await findThemeBySlug(db(), "classic-ivory"))!;
    expect((await client.form(`/e/${event.uuid}/arrange`, { intent: "theme-choose", themeId: ivory.id })).status).toBe(302);
    const { plan: newer } = await nextRender(event);
    const kept = new Set(piecesOf(newer).map((p) => p.key));
    const dropped = piecesOf(old).filter((p) => !kept.has(p.key));
    expect(dropped.length).toBeGreaterThan(0);

    await preparing;
    // It ended without the old theme's remaining scenes and their crossfades. (How many pieces it made
    // is no measure: a scene's run makes its parts too, and on a busy machine it makes more of them
    // before the next look at the plan, a second later.)
    const stored = await findStoredRenderPieceKeys(
      db(),
      dropped.map((p) => p.key),
    );
    expect(stored.size).toBeLessThan(dropped.length);
    // The newer preparation, queued by the theme change, makes the new theme's pieces.
    const panel = await allPiecesPrepared(client, event);
    expect(panel.pieces).toBe(piecesOf(newer).length);
  });

  test("a publish that finds scenes being rendered ahead waits for them instead of rendering them twice", async () => {
    const { client, event } = await preparedChorus();
    // Rendered ahead only by this test's own call from here on, so every piece made is counted.
    await allPiecesPrepared(client, event);
    await withoutRenderAhead(async () => {
      // A late photo: its scene and the closing card (which names it) are new, and no crossfade was made yet.
      const late = await addReadyMedia(event, "photo", files, { name: "Di", caption: "Late but here" });
      try {
        const { plan } = await nextRender(event);
        const total = piecesOf(plan).length;
        const stored = (await preparedPieces(plan)).reusable;
        expect(stored).toBeLessThan(total);

        const preparing = prepareEventPieces(event.id);
        const started = await client.post("/api/publish/media", { eventId: event.id });
        expect(started.status).toBe(202);
        const [madeAhead, done] = await Promise.all([preparing, renderSucceeded(started.body.data.id)]);
        const rendered = done.plan as RenderPlan;
        expect(rendered.hash).toBe(plan.hash);
        // Every missing piece made once: by the render-ahead run or by the render, never by both.
        expect(madeAhead + done.piecesRendered).toBe(total - stored);
        expect(done.piecesReused + done.piecesRendered).toBe(total);
        expect(madeAhead).toBeGreaterThan(0);
      } finally {
        // Hidden again: the shared Chorus is back to the five scenes the other tests count.
        await updateMedia(db(), late.id, { hidden: true });
      }
    });
  });
});
