import { spawn, type ChildProcess } from "node:child_process";
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { resetEnvCache } from "~/lib/env.server";
import { dropSingleton } from "~/lib/singleton.server";
import { listPublishedVersions } from "~/models/published-media.server";
import { findRenderJob } from "~/models/render-job.server";
import { findRenderPiece } from "~/models/render-piece.server";
import type { RenderJobUpdate } from "~/realtime/events";
import type { RenderPlan } from "~/render/plan";
import { recoverStalledRenders } from "~/services/render/render-jobs.server";
import type { RunningServer } from "../../server";
import { makeTempDir } from "../media/support/media-fixtures";
import { loggedInUser } from "../support/accounts";
import { appBundle } from "../support/app-bundle";
import { createTestEvent } from "../support/events";
import { addReadyMedia } from "../support/ready-media";
import { testDatabaseUrl } from "../support/test-database";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// A worker process killed in the middle of a render (the machine lost, an out-of-memory kill):
// the render is taken up again by another worker, reuses what was already rendered, and
// publishes exactly one version. The organiser's open page hears its progress from the worker
// processes (through PostgreSQL: this web process renders nothing).

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
const workers: ChildProcess[] = [];
let workerBundle: string;
const SETTINGS = { JOB_POLL_SECONDS: "0.5", RENDER_PHOTO_SECONDS: "2", RENDER_TITLE_SECONDS: "1.5" };

beforeAll(async () => {
  files = await makeTempDir("render-crash");
  dropSingleton("storage");
  workerBundle = await appBundle("app/jobs/worker.server.ts");
  // This process only queues; the renders happen in worker processes the test starts and kills.
  server = await startTestServer({ ...SETTINGS, RUN_WORKER: "false", DATA_DIR: files.path("data") });
});
afterAll(async () => {
  for (const worker of workers) worker.kill("SIGKILL");
  await server?.close();
  delete process.env.RENDER_STALL_SECONDS;
  resetEnvCache();
  dropSingleton("storage");
  await files?.remove();
});

function startWorker() {
  // node itself on the worker's bundle (tests/support/app-bundle.ts): a command in between (tsx,
  // npm) would run the worker in a child process of its own, which a kill of the command leaves running.
  const worker = spawn(process.execPath, [workerBundle], {
    env: {
      ...process.env,
      ...SETTINGS,
      DATABASE_URL: testDatabaseUrl(),
      DATA_DIR: files.path("data"),
      RUN_WORKER: "true",
      NODE_ENV: "test",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  worker.stderr!.on("data", () => {});
  workers.push(worker);
  return worker;
}

test("a worker killed mid-render is taken up again and publishes exactly one version", async () => {
  const { client, user } = await loggedInUser(server.url);
  const event = await createTestEvent(user);
  // Three items: after the first scene of its own is stored, its other scenes, the crossfades, the
  // soundtrack and the join are still to come when the worker is killed.
  for (const kind of ["video", "photo", "video"] as const) await addReadyMedia(event, kind, files, { name: "Ana" });

  const socket = connect(`${server.url}/users`, {
    transports: ["websocket"],
    extraHeaders: { cookie: client.cookieHeader() },
    forceNew: true,
    reconnection: false,
  });
  const heard: RenderJobUpdate[] = [];
  socket.on("render:progress", (update: RenderJobUpdate) => heard.push(update));
  await new Promise<void>((resolve) => socket.on("session:ready", () => resolve()));

  const started = await client.post("/api/publish/media", { eventId: event.id, resolution: "720p" });
  expect(started.status).toBe(202);
  const jobId: string = started.body.data.id;
  const plan = (await findRenderJob(db(), jobId))!.plan as RenderPlan;

  const first = startWorker();
  // Killed once it has stored a scene of this Chorus's own media, before the render can finish.
  // (A title card's piece may already be there: another test's render of the same words and
  // theme stores one under the same key, which is what keys are for.)
  const ownScenes = plan.segments.filter((segment) => segment.kind !== "title");
  await until(
    async () => {
      for (const segment of ownScenes) if (await findRenderPiece(db(), segment.key)) return true;
      return false;
    },
    { timeout: 120_000, interval: 100, what: "the first rendered scene" },
  );
  first.kill("SIGKILL");
  await new Promise((resolve) => first.once("exit", resolve));
  const dead = (await findRenderJob(db(), jobId))!;
  expect(dead.status).toBe("running");
  expect(await listPublishedVersions(db(), event.id)).toHaveLength(0);

  // Its heartbeat stops; the sweep takes the render up again. (The sweep looks at every render of
  // the database, which other test files of this worker used before: count this one only.)
  process.env.RENDER_STALL_SECONDS = "1";
  resetEnvCache();
  await new Promise((r) => setTimeout(r, 1500));
  expect(await recoverStalledRenders()).toBeGreaterThanOrEqual(1);
  const recovered = (await findRenderJob(db(), jobId))!;
  expect(recovered.status).toBe("queued");
  expect(recovered.attempts).toBe(1);

  startWorker();
  const done = await until(
    async () => {
      const job = await findRenderJob(db(), jobId);
      return job && job.status !== "queued" && job.status !== "running" ? job : null;
    },
    { timeout: 180_000, interval: 100, what: "the render to finish" },
  );
  expect(done.status).toBe("succeeded");
  expect(done.attempts).toBe(2);
  // What the dead worker had stored was reused, not rendered again.
  expect(done.piecesReused).toBeGreaterThan(0);
  const versions = await listPublishedVersions(db(), event.id);
  expect(versions).toHaveLength(1);
  expect(versions[0]!.renderJobId).toBe(jobId);

  // Progress only a worker sends (running, then done) reached the page live.
  await until(() => heard.some((u) => u.id === jobId && u.status === "succeeded"), {
    timeout: 10_000,
    interval: 100,
    what: "the finished render to be heard",
  });
  const running = heard.filter((u) => u.id === jobId && u.status === "running");
  expect(running.some((u) => u.percent > 0 && u.etaSeconds !== null)).toBe(true);
  expect(heard.find((u) => u.status === "succeeded")).toMatchObject({ id: jobId, percent: 100, piecesReused: done.piecesReused });
  socket.close();
}, 360_000);
