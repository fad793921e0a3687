import type { Event } from "drizzle/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { resetEnvCache } from "~/lib/env.server";
import { dropSingleton } from "~/lib/singleton.server";
import { findRenderJob, listRenderJobsOfEvent } from "~/models/render-job.server";
import { piecesOf, type RenderPlan } from "~/render/plan";
import { nextRender, preparedPieces } from "~/services/render/next-render.server";
import { prepareEventPieces } from "~/services/render/render-jobs.server";
import type { RunningServer } from "../../server";
import { makeClip, makeTempDir } from "../media/support/media-fixtures";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import type { TestClient } from "../support/http-client";
import { addReadyMedia } from "../support/ready-media";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// What the render panel promises ("a render now reuses N of its M pieces") is what the next render
// reports, whichever way it is started, and a render never makes a piece the render-ahead job is
// making: it waits for it.

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

async function finished(id: string) {
  let status: string | undefined;
  const job = await until(
    async () => {
      const row = await findRenderJob(db(), id);
      status = row?.status;
      return row && ["succeeded", "failed", "cancelled"].includes(row.status) ? row : null;
    },
    { timeout: 180_000, what: () => `render ${id}, still ${status}` },
  );
  expect(job.status, job.error ?? "").toBe("succeeded");
  return job;
}

/** Waits until the render-ahead job has rendered every scene, as the panel tells it. */
const allScenesPrepared = (client: TestClient, event: Event) =>
  until(
    async () => {
      const panel = await panelOf(client, event);
      return panel.scenesPrepared === panel.scenes ? panel : null;
    },
    { timeout: 300_000, interval: 500, what: "the render-ahead job to render every scene" },
  );

describe("what the render panel promises is what the render reuses", { timeout: 600_000 }, () => {
  test("after the items are ready the scenes are rendered ahead by themselves, and a render from the page reuses exactly what the panel counted", async () => {
    const { client, event } = await arrangedEvent();
    // Nobody asked: the items becoming ready queued the render-ahead job.
    const panel = await allScenesPrepared(client, event);
    expect(panel.scenes).toBe(5);
    // Five scenes of two pieces each (its head, tail and sound, and its own frames: every item here is
    // shorter than its text box's reading time, so all captioned), four crossfades, one soundtrack:
    // the scenes are there, the rest is made at publish.
    expect(panel).toMatchObject({ reusable: 10, pieces: 15 });

    // The page's own form, as sent without JavaScript: the 720p this Chorus has, published when done.
    const started = await client.form(`/e/${event.uuid}/arrange`, { intent: "render-start", resolution: "720p", publish: "on" });
    expect(started.status).toBe(302);
    const [job] = await until(
      async () => {
        const jobs = await listRenderJobsOfEvent(db(), event.id, 1);
        return jobs.length ? jobs : null;
      },
      { what: "the render to be queued" },
    );
    const done = await finished(job!.id);
    expect(done.piecesReused).toBe(panel.reusable);
    expect(done.piecesRendered).toBe(panel.pieces - panel.reusable);

    // Everything is stored now: the panel says a render would only join, and one would reuse it all.
    const after = await panelOf(client, event);
    expect(after).toMatchObject({ reusable: 15, pieces: 15 });
    expect(after.page).toContain("A render now reuses 15 of its 15 pieces: only joining them is left.");
    // The finished render says what it did in the same words.
    expect(after.page).toContain("10 pieces reused, 5 rendered");
  });

  test("a caption change: the page says what is left and how long it takes here; POST /api/publish/media reuses what it says", async () => {
    const { client, event, media } = await arrangedEvent();
    await allScenesPrepared(client, event);
    // A first render stores crossfades and a soundtrack, and times them on this machine.
    const first = await client.post("/api/publish/media", { eventId: event.id });
    expect(first.status).toBe(202);
    await finished(first.body.data.id);

    const changed = await client.put(`/api/v2/media/${media[1]!.id}`, { caption: "Remember this summer?" });
    expect(changed.status).toBe(200);
    // Before the render-ahead job (5 s after a change) has run: the photo's captioned part is new, and
    // nothing else (its crossfades are made from its head and tail, which have no words).
    const before = await panelOf(client, event);
    expect(before).toMatchObject({ scenesPrepared: 4, scenes: 5, reusable: 14, pieces: 15 });
    const estimate =
      /makes 1 scene\. That takes about (\d+) (s|min) on this server, going by how fast it rendered its latest pieces\./.exec(before.page);
    expect(
      estimate,
      before.page.slice(before.page.indexOf("already rendered") - 80, before.page.indexOf("already rendered") + 400),
    ).not.toBeNull();
    expect(Number(estimate![1])).toBeGreaterThan(0);

    // The job renders the changed part by itself; the API's render then only joins.
    const ready = await allScenesPrepared(client, event);
    expect(ready).toMatchObject({ reusable: 15, pieces: 15 });
    const again = await client.post("/api/publish/media", { eventId: event.id });
    expect(again.status).toBe(202);
    const done = await finished(again.body.data.id);
    expect(done.piecesReused).toBe(ready.reusable);
    expect(done.piecesRendered).toBe(0);
  });

  test("a publish that finds scenes being rendered ahead waits for them instead of rendering them twice", async () => {
    const { client, event } = await arrangedEvent();
    // Rendered ahead only by this test's own call from here on, so every piece made is counted.
    await allScenesPrepared(client, event);
    process.env.RENDER_AHEAD = "false";
    resetEnvCache();
    try {
      // A late photo: its scene and the closing card (which names it) are new, and no crossfade was made yet.
      await addReadyMedia(event, "photo", files, { name: "Di", caption: "Late but here" });
      const { plan } = await nextRender(event);
      const total = piecesOf(plan).length;
      const stored = (await preparedPieces(plan)).reusable;
      expect(stored).toBeLessThan(total);

      const preparing = prepareEventPieces(event.id);
      const started = await client.post("/api/publish/media", { eventId: event.id });
      expect(started.status).toBe(202);
      const [madeAhead, done] = await Promise.all([preparing, finished(started.body.data.id)]);
      const rendered = done.plan as RenderPlan;
      expect(rendered.hash).toBe(plan.hash);
      // Every missing piece made once: by the render-ahead run or by the render, never by both.
      expect(madeAhead + done.piecesRendered).toBe(total - stored);
      expect(done.piecesReused + done.piecesRendered).toBe(total);
      expect(madeAhead).toBeGreaterThan(0);
    } finally {
      process.env.RENDER_AHEAD = "true";
      resetEnvCache();
    }
  });
});
