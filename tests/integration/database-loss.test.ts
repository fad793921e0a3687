import crypto from "node:crypto";
import postgres from "postgres";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { lastMailTo, loggedInUser } from "../support/accounts";
import { killAppProcesses, startWebProcess, startWorkerProcess, type AppProcess } from "../support/app-processes";
import { createTestEvent } from "../support/events";
import { freePort } from "../support/global-database";
import type { TestClient } from "../support/http-client";
import { makePhoto, makeTempDir } from "../support/media-fixtures";
import { testDatabaseName } from "../support/test-database";
import { applyTestEnvironment } from "../support/test-server";
import { uploadFile } from "../support/tus-client";
import { until } from "../support/wait";

// The database goes away under a running deployment: a web process (RUN_WORKER=false) and a
// worker process, as they run for real, lose every connection they hold at once — what a failover
// or a proxy's idle timeout does — or find the database refusing connections for a while. Neither
// process may stop; meanwhile requests are answered 503 "try again"; then pages, /api calls, jobs
// and live updates work again without anyone restarting anything.

let web: AppProcess;
let worker: AppProcess;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let baseUrl: string;
/** A connection to another database of the server: it survives what the test does to the app's. */
let admin: postgres.Sql;
const database = () => testDatabaseName();

beforeAll(async () => {
  files = await makeTempDir("database-loss");
  admin = postgres(inject("databaseServerUrl"), { max: 1, onnotice: () => {} });
  const port = await freePort();
  const environment = applyTestEnvironment(port, { RUN_WORKER: "false", DATA_DIR: files.path("data"), JOB_POLL_SECONDS: "0.5" });
  baseUrl = environment.APP_URL!;
  // One after the other: the first creates this file's queues.
  web = await startWebProcess(environment);
  worker = await startWorkerProcess(environment);
});

afterAll(async () => {
  await admin?.unsafe(`alter database "${database()}" allow_connections true`);
  await killAppProcesses();
  await admin?.end({ timeout: 5 });
  await files?.remove();
});

/** Ends every connection to the test database but the admin's; answers how many there were. */
async function terminateConnections() {
  const ended = await admin`
    select pg_terminate_backend(pid) as ended from pg_stat_activity
    where datname = ${database()} and pid <> pg_backend_pid()`;
  return ended.length;
}

/**
 * Connections to the test database LISTENing for realtime messages (the web process's adapter),
 * not for new jobs (the worker's wake-ups, on the queue schema's channel).
 */
async function listeners() {
  const [row] = await admin`
    select count(*)::int as count from pg_stat_activity
    where datname = ${database()} and query ilike ${`LISTEN "${process.env.REALTIME_CHANNEL}%`} and state = 'idle'`;
  return row!.count as number;
}

const expectAlive = () => {
  expect(web.alive(), `the web process stopped:\n${web.output()}`).toBe(true);
  expect(worker.alive(), `the worker process stopped:\n${worker.output()}`).toBe(true);
};

/** Repeats a request until it answers `expected`; any answer on the way must be that or a 503. */
async function untilAnswered(what: string, expected: number, request: () => Promise<{ status: number }>) {
  const seen: number[] = [];
  const reply = await until(
    async () => {
      const answer = await request();
      seen.push(answer.status);
      expect([expected, 503], `${what}: answers ${seen.join(", ")}`).toContain(answer.status);
      return answer.status === expected && answer;
    },
    { timeout: 20_000, interval: 200, what: () => `${what} to work again (answers: ${seen.join(", ")})` },
  );
  return { reply, seen };
}

function organiserSocket(client: TestClient) {
  const socket: Socket = connect(`${baseUrl}/users`, {
    transports: ["websocket"],
    extraHeaders: { cookie: client.cookieHeader() },
    forceNew: true,
  });
  const updates: { eventUuid: string; media: { status?: string } }[] = [];
  socket.on("media:updated", (update) => updates.push(update));
  const ready = new Promise<void>((resolve) => socket.once("session:ready", () => resolve()));
  return { socket, updates, ready };
}

/** Everything a visitor and a worker do, once more: a page, an /api call with its job, an upload heard live. */
async function everythingWorks(label: string) {
  const started = Date.now();
  const { client, user } = await loggedInUser(baseUrl);
  const event = await createTestEvent(user);

  const page = await untilAnswered(`${label}: the dashboard`, 200, () => client.raw("GET", "/dashboard"));
  const email = `invitee-${crypto.randomBytes(4).toString("hex")}@example.test`;
  await untilAnswered(`${label}: adding and inviting someone`, 201, () =>
    client.post("/api/v2/rsvps", { eventId: event.id, name: "Dana", email, invite: true }),
  );
  // The invitation job, worked by the worker process, puts its mail in the outbox.
  await until(() => lastMailTo(email), { timeout: 20_000, interval: 200, what: `${label}: the invitation to ${email}` });

  // A photo uploaded to the web process is processed by the worker, and the organiser's open page
  // hears it is ready (worker → NOTIFY → the web process's LISTEN → the socket). What is notified
  // while no connection listens is lost (the page reads it on reload): the web process must have
  // listened again first.
  await until(async () => (await listeners()) >= 1, { timeout: 20_000, interval: 100, what: `${label}: the web process to listen again` });
  const live = organiserSocket(client);
  await live.ready;
  const photo = await makePhoto(files.path(`${label}.jpg`), { width: 320, height: 240 });
  const upload = await uploadFile(
    baseUrl,
    photo,
    {
      eventUuid: event.uuid,
      filename: "photo.jpg",
      filetype: "image/jpeg",
      contributorName: "Dana",
      purpose: "contribution",
      uploadToken: crypto.randomBytes(24).toString("base64url"),
    },
    { chunkSize: 1024 * 1024 },
  );
  expect(upload.mediaUuid).toBeTruthy();
  await until(() => live.updates.some((u) => u.eventUuid === event.uuid && u.media.status === "ready"), {
    timeout: 30_000,
    interval: 100,
    what: `${label}: the processed photo to be heard live`,
  });
  live.socket.close();
  return { seconds: (Date.now() - started) / 1000, pageAnswers: page.seen };
}

test("every connection of a web and a worker process is terminated: both carry on, and everything works again within seconds", async () => {
  await everythingWorks("before");
  expect(await listeners()).toBeGreaterThanOrEqual(1);

  const ended = await terminateConnections();
  // The web process's pool, its LISTEN connection and queue; the worker's pool, queue and emitter.
  expect(ended).toBeGreaterThanOrEqual(4);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expectAlive();

  const after = await everythingWorks("after");
  console.info(`after every connection was terminated: everything worked again in ${after.seconds.toFixed(1)} s`);
  expect(after.seconds).toBeLessThan(45);
  expectAlive();
}, 120_000);

test("a database that refuses connections for a while: pages and /api calls answer 503 meanwhile, then work again", async () => {
  const { client, user } = await loggedInUser(baseUrl);
  const event = await createTestEvent(user);

  await admin.unsafe(`alter database "${database()}" allow_connections false`);
  try {
    await terminateConnections();
    const page = await client.raw("GET", "/dashboard");
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("5");
    const html = await page.text();
    expect(html).toContain("Please try again in a moment");
    expect(html).toContain('href="/dashboard"');

    const api = await client.post("/api/v2/rsvps", { eventId: event.id, name: "Eli", email: "eli@example.test", invite: true });
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toBe("5");
    expect(api.body).toEqual({
      success: false,
      error: { code: "UNAVAILABLE", message: "We can't reach our database just now. Please try again in a moment." },
    });

    const form = await client.form(`/e/${event.uuid}`, { intent: "invite", name: "Eli", email: "eli@example.test", sendNow: "on" });
    expect(form.status).toBe(503);
    expect(await form.text()).toContain(`href="/e/${event.uuid}"`);

    // The workers keep trying while nothing answers them.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expectAlive();
  } finally {
    await admin.unsafe(`alter database "${database()}" allow_connections true`);
  }

  const after = await everythingWorks("reopened");
  console.info(`after the database took connections again: everything worked again in ${after.seconds.toFixed(1)} s`);
  expectAlive();
}, 120_000);
