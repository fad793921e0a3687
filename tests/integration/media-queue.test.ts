import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Event } from "drizzle/schema";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { resetEnvCache } from "~/lib/env.server";
import { dropSingleton } from "~/lib/singleton.server";
import { findMediaById, insertMedia } from "~/models/media.server";
import { PREPARE_FAILED } from "~/services/media/media-processing.server";
import { queueMediaProcessing } from "~/services/media/media-queue.server";
import { storage } from "~/services/media/storage.server";
import type { RunningServer } from "../../server";
import { makeClip, makeQuartersImage, makeTempDir } from "../media/support/media-fixtures";
import { loggedInUser } from "../support/accounts";
import { appBundle } from "../support/app-bundle";
import { createTestEvent } from "../support/events";
import { untilJobsFinished } from "../support/jobs";
import { testDatabaseUrl } from "../support/test-database";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// Media processing in worker processes (docs/decisions/015): a worker killed in the middle of a
// clip loses nothing but time, and a long clip does not hold up the photos and short clips
// queued behind it. The lease, heartbeat and sweep run with their real settings: the time to
// recover is what a deployment sees.

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
const workers: ChildProcess[] = [];
let workerBundle: string;
// A short lease, heartbeat and sweep, so a dead worker's job is handed on in seconds, not the
// production 20 s lease and 5 s sweep (the same code path either way).
const SETTINGS = { JOB_POLL_SECONDS: "0.5", JOB_LEASE_SECONDS: "6", JOB_HEARTBEAT_SECONDS: "2", JOB_SWEEP_SECONDS: "1" };

beforeAll(async () => {
  files = await makeTempDir("media-queue");
  for (const machine of ["a", "b"]) await fs.mkdir(files.path(`tmp-${machine}`));
  dropSingleton("storage");
  workerBundle = await appBundle("app/jobs/worker.server.ts");
  // This process only queues; the media are processed by worker processes the test starts and kills.
  server = await startTestServer({ ...SETTINGS, RUN_WORKER: "false", DATA_DIR: files.path("data") });
});
afterAll(async () => {
  for (const worker of workers) worker.kill("SIGKILL");
  await server?.close();
  delete process.env.MEDIA_SMALL_MAX_BYTES;
  resetEnvCache();
  dropSingleton("storage");
  await files?.remove();
});

// A test that failed half-way must not leave a worker to take the next test's jobs.
afterEach(async () => {
  const alive = workers.filter((worker) => worker.exitCode === null && worker.signalCode === null);
  for (const worker of alive) worker.kill("SIGKILL");
  await Promise.all(alive.map((worker) => new Promise((resolve) => worker.once("exit", resolve))));
});

/** A worker process; `machine` names its temporary folder, as if it ran on a machine of its own. */
function startWorker(machine = "a", settings: Record<string, string> = {}) {
  // node itself on the worker's bundle (see render-crash.test.ts), with its own temporary folder so
  // the test can see every file a worker leaves behind.
  const worker = spawn(process.execPath, [workerBundle], {
    env: {
      ...process.env,
      ...SETTINGS,
      ...settings,
      DATABASE_URL: testDatabaseUrl(),
      DATA_DIR: files.path("data"),
      RUN_WORKER: "true",
      NODE_ENV: "test",
      TMPDIR: files.path(`tmp-${machine}`),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  worker.stderr!.on("data", () => {});
  workers.push(worker);
  // "Chorus worker is running." is printed once the start-up sweep has handed on what it found.
  let printed = "";
  worker.stdout!.on("data", (chunk) => (printed += chunk));
  const startedAt = Date.now();
  let runningAt: number | null = null;
  const running = async () => {
    await until(() => printed.includes("Chorus worker is running."), { timeout: 60_000, what: "the worker to start" });
    runningAt ??= Date.now();
    return (runningAt - startedAt) / 1000;
  };
  return Object.assign(worker, { running });
}

/** An original in storage, recorded and queued as a finished upload is. */
async function upload(event: Event, local: string, mimeType: string) {
  const key = `events/${event.id}/uploads/${crypto.randomUUID()}`;
  const sizeBytes = (await fs.stat(local)).size;
  await storage().putFile(key, local, mimeType);
  const record = await insertMedia(db(), {
    eventId: event.id,
    purpose: "contribution",
    originalKey: key,
    originalName: path.basename(local),
    mimeType,
    sizeBytes,
    contributorName: "Bo",
    uploadId: `test-${crypto.randomUUID()}`,
  });
  const lane = await queueMediaProcessing(record);
  return { record, lane };
}

const statusOf = async (id: string) => (await findMediaById(db(), id))?.status;

const workRootOf = (machine: string) => path.join(files.path(`tmp-${machine}`), "chorus-work");

/** The job folders a worker has open for an item (named media-<id>-<job>). */
const workFoldersOf = async (mediaId: string, machine = "a") =>
  (await fs.readdir(workRootOf(machine)).catch(() => [] as string[])).filter((name) => name.startsWith(`media-${mediaId}-`));

/** Processes (a dead worker's ffmpeg) still writing into a folder. */
async function processesUsing(folder: string) {
  const found: number[] = [];
  for (const entry of await fs.readdir("/proc")) {
    const commandLine = await fs.readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (Number(entry) && commandLine.includes(folder + "/")) found.push(Number(entry));
  }
  return found;
}

/** Queues a 4 s clip, lets a worker start on it, and kills that worker while ffmpeg writes the rendition. */
async function killWorkerMidClip(label: string, settings: Record<string, string> = {}) {
  // Started first: it gets going while the clip is made and queued.
  const worker = startWorker("a", settings);
  const { user } = await loggedInUser(server.url);
  const event = await createTestEvent(user);
  const clip = await makeClip(files.path(`${label}.mp4`), { seconds: 4, width: 640, height: 360 });
  const { record } = await upload(event, clip, "video/mp4");
  const folder = await until(
    async () => {
      const [name] = await workFoldersOf(record.id);
      if (!name) return null;
      const rendition = await fs.stat(path.join(workRootOf("a"), name, "rendition.mp4")).catch(() => null);
      return rendition && rendition.size > 0 ? path.join(workRootOf("a"), name) : null;
    },
    { timeout: 120_000, interval: 100, what: "the rendition to be half written" },
  );
  worker.kill("SIGKILL");
  const killedAt = Date.now();
  await new Promise((resolve) => worker.once("exit", resolve));
  expect(await statusOf(record.id)).toBe("processing");
  return { record, folder, killedAt };
}

/** Seconds from the kill until another attempt starts on the item, and until it is ready. */
async function secondsUntilReady(mediaId: string, since: number) {
  await until(async () => ((await findMediaById(db(), mediaId))?.updatedAt.getTime() ?? 0) > since, {
    timeout: 90_000,
    interval: 100,
    what: "another attempt",
  });
  const pickedUp = (Date.now() - since) / 1000;
  await until(async () => (await statusOf(mediaId)) === "ready", { timeout: 90_000, interval: 100, what: "the item to be ready" });
  const seconds = (Date.now() - since) / 1000;
  const ready = (await findMediaById(db(), mediaId))!;
  expect(ready.durationSeconds).toBeCloseTo(4, 0);
  expect(await storage().stat(ready.renditionKey!)).not.toBeNull();
  return { pickedUp, seconds };
}

test("a worker killed mid-clip and started again: the item is ready soon after, and nothing of the dead attempt is left", async () => {
  // The dead worker holds a long lease, so only the new worker's start-up can hand its job on in time.
  const { record, folder, killedAt } = await killWorkerMidClip("restart", { JOB_LEASE_SECONDS: "90", JOB_HEARTBEAT_SECONDS: "5" });
  expect(await fs.readdir(folder)).toContain("rendition.mp4");

  const restarted = startWorker("a");
  const { pickedUp, seconds } = await secondsUntilReady(record.id, killedAt);
  const startUp = await restarted.running();
  console.info(
    `restarted worker: started in ${startUp.toFixed(1)} s, took the job up ${pickedUp.toFixed(1)} s and was ready ${seconds.toFixed(1)} s after the kill`,
  );
  // At once: the new worker sees the dead one's folder and hands its job on as it starts, long
  // before the dead worker's lease would lapse.
  expect(pickedUp).toBeLessThan(startUp + 5);
  expect(pickedUp).toBeLessThan(60);
  expect(seconds - pickedUp).toBeLessThan(60);
  // The dead attempt's folder, half-written rendition and all, is gone (the new attempt's own goes
  // as its job finishes, just after the item turns ready), and so is its ffmpeg.
  await until(async () => (await workFoldersOf(record.id)).length === 0, {
    timeout: 10_000,
    interval: 100,
    what: "no folder of the item to be left",
  });
  expect(await processesUsing(folder)).toEqual([]);
  restarted.kill("SIGKILL");
  await new Promise((resolve) => restarted.once("exit", resolve));
}, 240_000);

test("a worker killed mid-clip for good: a worker elsewhere takes the job when its lease lapses", async () => {
  const { record, folder, killedAt } = await killWorkerMidClip("elsewhere");

  // Another machine: it cannot see the dead worker's folder; only the lapsed lease tells.
  const elsewhere = startWorker("b");
  const { pickedUp, seconds } = await secondsUntilReady(record.id, killedAt);
  const startUp = await elsewhere.running();
  console.info(
    `worker elsewhere: started in ${startUp.toFixed(1)} s, took the job up ${pickedUp.toFixed(1)} s and was ready ${seconds.toFixed(1)} s after the kill`,
  );
  // Once it runs and the lease (JOB_LEASE_SECONDS, 6 here) has lapsed, its next sweep (every second
  // here) hands the job on: a few seconds, however long a loaded machine took to start the worker.
  expect(pickedUp).toBeLessThan(Math.max(startUp, 6) + 10);
  expect(seconds - pickedUp).toBeLessThan(60);
  await until(async () => (await workFoldersOf(record.id, "b")).length === 0, {
    timeout: 10_000,
    interval: 100,
    what: "the finished job's folder to go",
  });

  // The dead machine's folder goes when a worker starts there again; the finished job is not run again.
  const { updatedAt } = (await findMediaById(db(), record.id))!;
  const backAgain = startWorker("a");
  await until(async () => !(await fs.stat(folder).catch(() => null)), {
    timeout: 60_000,
    interval: 100,
    what: "the dead attempt's folder to be removed",
  });
  // Whatever the sweep handed on has been queued by the time the worker says it runs, and has run
  // by the time every job of the item is finished.
  await backAgain.running();
  const jobs = await untilJobsFinished("media-small", { singletonKey: `media:${record.id}` });
  expect(jobs.map((job) => job.state)).toEqual(["completed"]);
  expect((await findMediaById(db(), record.id))!.updatedAt).toEqual(updatedAt);
  for (const worker of [elsewhere, backAgain]) worker.kill("SIGKILL");
  await Promise.all([elsewhere, backAgain].map((worker) => new Promise((resolve) => worker.once("exit", resolve))));
}, 240_000);

test("a worker killed on a clip's last attempt: the item says it failed instead of staying processing", async () => {
  process.env.JOB_RETRY_LIMIT = "0";
  resetEnvCache();
  try {
    const { record, killedAt } = await killWorkerMidClip("last-attempt");
    const elsewhere = startWorker("b");
    await until(async () => (await statusOf(record.id)) === "failed", { timeout: 60_000, interval: 100, what: "the item to fail" });
    console.info(`last attempt: item failed ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`);
    expect((await findMediaById(db(), record.id))!.failureReason).toBe(PREPARE_FAILED);
    elsewhere.kill("SIGKILL");
    await new Promise((resolve) => elsewhere.once("exit", resolve));
  } finally {
    delete process.env.JOB_RETRY_LIMIT;
    resetEnvCache();
  }
}, 240_000);

test("a photo and a short clip are ready while a long clip is still being processed", async () => {
  const { user } = await loggedInUser(server.url);
  const event = await createTestEvent(user);
  const long = await makeClip(files.path("long.mp4"), { seconds: 12, width: 640, height: 360 });
  const short = await makeClip(files.path("short.mp4"), { seconds: 2 });
  const photo = await makeQuartersImage(files.path("photo.jpg"), 1200, 900);
  // The long clip is the only file above the fast lane's size.
  process.env.MEDIA_SMALL_MAX_BYTES = String((await fs.stat(long)).size - 1);
  resetEnvCache();
  dropSingleton("storage");

  const longItem = await upload(event, long, "video/mp4");
  expect(longItem.lane).toBe("media-large");
  const worker = startWorker();
  await until(async () => (await statusOf(longItem.record.id)) === "processing", {
    timeout: 60_000,
    interval: 100,
    what: "the long clip to start",
  });

  const shortItem = await upload(event, short, "video/mp4");
  const photoItem = await upload(event, photo, "image/jpeg");
  expect([shortItem.lane, photoItem.lane]).toEqual(["media-small", "media-small"]);
  const queuedAt = Date.now();
  await until(async () => (await statusOf(shortItem.record.id)) === "ready" && (await statusOf(photoItem.record.id)) === "ready", {
    timeout: 60_000,
    interval: 100,
    what: "the short items",
  });
  console.info(`photo and short clip ready ${((Date.now() - queuedAt) / 1000).toFixed(1)} s after queueing, behind a long clip`);
  expect(await statusOf(longItem.record.id)).toBe("processing");

  await until(async () => (await statusOf(longItem.record.id)) === "ready", { timeout: 180_000, interval: 100, what: "the long clip" });
  worker.kill("SIGKILL");
}, 300_000);
