import crypto from "node:crypto";
import fs from "node:fs/promises";
import http from "node:http";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { loggedInUser, uniqueEmail } from "../support/accounts";
import { killAppProcesses, startWebProcess, startWorkerProcess, type AppProcess } from "../support/app-processes";
import { createTestEvent } from "../support/events";
import { freePort } from "../support/global-database";
import { jobsOf, untilJobsFinished } from "../support/jobs";
import { makePhoto, makeTempDir } from "../support/media-fixtures";
import { startSmtpSink } from "../support/smtp-sink";
import { testDatabaseName } from "../support/test-database";
import { applyTestEnvironment } from "../support/test-server";
import { create, head, patch, uploaderHeaders } from "../support/tus-client";
import { until } from "../support/wait";

// What an operator running many machines relies on (docs/deploy.md), on the app as it runs for
// real: web processes (`server.ts`, RUN_WORKER=false) and workers (`npm run worker`) of their own.
// Health and readiness answers (readiness 503 while the database is gone), the request log, the
// metrics behind their token, and a graceful stop on SIGTERM: an upload chunk under way completes
// and its upload resumes on another web process; a job under way goes back to the queue and another
// worker runs it. The web process's stop comes last: it is the process the other tests ask.

const METRICS_TOKEN = crypto.randomBytes(16).toString("hex");
let web: AppProcess;
let environment: Record<string, string>;
let baseUrl: string;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
/** A connection to another database of the server: it survives what the test does to the app's. */
let admin: postgres.Sql;
const database = () => testDatabaseName();

beforeAll(async () => {
  files = await makeTempDir("operations");
  smtp = await startSmtpSink();
  admin = postgres(inject("databaseServerUrl"), { max: 1, onnotice: () => {} });
  const port = await freePort();
  environment = applyTestEnvironment(port, {
    RUN_WORKER: "false",
    DATA_DIR: files.path("data"),
    SMTP_URL: smtp.url,
    METRICS_TOKEN,
    LOG_FORMAT: "json",
    SHUTDOWN_GRACE_SECONDS: "10",
  });
  baseUrl = environment.APP_URL!;
  web = await startWebProcess(environment);
});

afterAll(async () => {
  await admin?.unsafe(`alter database "${database()}" allow_connections true`);
  await killAppProcesses();
  await admin?.end({ timeout: 5 });
  await smtp?.close();
  await files?.remove();
});

const get = (path: string, headers: Record<string, string> = {}, url = baseUrl) => fetch(new URL(path, url), { headers });

/** Another web process on the same database, queue and files, on a port of its own. */
async function anotherWebProcess() {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  return { url, process: await startWebProcess({ ...environment, PORT: String(port), APP_URL: url }) };
}

describe("health, readiness and metrics", () => {
  test("/healthz and /readyz answer 200 with their checks; each request is logged as one JSON line with its id", async () => {
    const health = await get("/healthz");
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });

    const ready = await get("/readyz", { "X-Request-Id": "lb-check-1" });
    expect(ready.status).toBe(200);
    expect(ready.headers.get("x-request-id")).toBe("lb-check-1");
    expect(await ready.json()).toEqual({ status: "ready", checks: { accepting: "ok", database: "ok", migrations: "ok", queue: "ok" } });

    await until(() => web.output().includes('"requestId":"lb-check-1"'), { timeout: 5000, interval: 50, what: "the request's log line" });
    const line = web
      .output()
      .split("\n")
      .find((each) => each.includes('"requestId":"lb-check-1"'))!;
    expect(JSON.parse(line)).toMatchObject({
      level: "info",
      method: "GET",
      route: "/readyz",
      path: "/readyz",
      status: 200,
      requestId: "lb-check-1",
    });
    expect(typeof JSON.parse(line).ms).toBe("number");
    // A request without an id of its own gets one.
    expect((await get("/healthz")).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("/metrics asks for its token, and names requests by route pattern, the queues' depths and ages, renders and the process", async () => {
    expect((await get("/metrics")).status).toBe(401);
    expect((await get("/metrics", { Authorization: "Bearer wrong" })).status).toBe(401);

    const { client, user } = await loggedInUser(baseUrl);
    const event = await createTestEvent(user);
    // Read to the end: a request is counted once its answer is finished, and the page streams.
    const page = await client.raw("GET", `/e/${event.uuid}`);
    expect(page.status).toBe(200);
    await page.text();
    // Queued with no worker running: it waits, and the metrics say so.
    await client.post("/api/v2/rsvps", { eventId: event.id, name: "Queued", email: uniqueEmail("queued"), invite: true });

    const reply = await get("/metrics", { Authorization: `Bearer ${METRICS_TOKEN}` });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toContain("text/plain");
    const text = await reply.text();
    expect(text).toContain('chorus_http_requests_total{method="GET",route="/e/:uuid",status="200"} ');
    expect(text).toContain('chorus_http_requests_total{method="POST",route="/api/v2/rsvps",status="201"} ');
    expect(text).toMatch(/chorus_http_request_duration_seconds_bucket\{le="0\.5",method="GET",route="\/e\/:uuid",status="200"\} \d+/);
    // No series names a raw path.
    expect(text).not.toContain(event.uuid);
    expect(text).toMatch(/chorus_job_queue_depth\{queue="rsvp-invite",state="waiting"\} [1-9]/);
    expect(text).toContain('chorus_job_queue_depth{queue="media-small",state="active"} 0');
    expect(text).toMatch(/chorus_job_queue_oldest_waiting_seconds\{queue="rsvp-invite"\} \d/);
    expect(text).toContain("# TYPE chorus_render_duration_seconds histogram");
    expect(text).toMatch(/chorus_process_resident_memory_bytes \d+/);
    expect(text).toMatch(/chorus_nodejs_eventloop_lag_seconds \d/);
  });

  test("/readyz answers 503 while the database refuses connections (/healthz still 200), and 200 once it is back", async () => {
    await admin.unsafe(`alter database "${database()}" allow_connections false`);
    try {
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${database()} and pid <> pg_backend_pid()`;
      const ready = await get("/readyz");
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: "unavailable", checks: { database: "unreachable", accepting: "ok" } });
      expect((await get("/healthz")).status).toBe(200);
    } finally {
      await admin.unsafe(`alter database "${database()}" allow_connections true`);
    }
    await until(async () => (await get("/readyz")).status === 200, {
      timeout: 20_000,
      interval: 200,
      what: "readiness once the database is back",
    });
    expect(web.alive()).toBe(true);
  }, 60_000);
});

describe("a graceful stop (SIGTERM)", () => {
  test("a worker stopped while it sends an invitation hands the job back: another worker sends it at once, exactly once", async () => {
    const { client, user } = await loggedInUser(baseUrl);
    const event = await createTestEvent(user);
    const email = uniqueEmail("handed-back");
    smtp.holdOnce.add(email);
    const first = await startWorkerProcess({ ...environment, SHUTDOWN_GRACE_SECONDS: "2" });
    const added = await client.post("/api/v2/rsvps", { eventId: event.id, name: "Ines", email, invite: true });
    expect(added.status).toBe(201);
    await until(() => smtp.held.some((mail) => mail.to.includes(email)), { timeout: 30_000, interval: 100, what: "the held message" });
    const second = await startWorkerProcess(environment);

    const stoppedAt = Date.now();
    expect(await first.signal("SIGTERM")).toBe(0);
    expect(first.output()).toContain("1 running job(s) handed back to the queue");
    await until(() => smtp.to(email).length > 0, { timeout: 30_000, interval: 100, what: "the invitation from the other worker" });
    const seconds = (Date.now() - stoppedAt) / 1000;
    console.info(`the invitation was sent by the other worker ${seconds.toFixed(1)} s after SIGTERM (grace 2 s)`);
    // Not when its lease would have lapsed (20 s) and a sweep came round: right after the stop.
    expect(seconds).toBeLessThan(12);

    const [job] = await untilJobsFinished("rsvp-invite", { data: { rsvpId: added.body.data.id } });
    expect(job!.state).toBe("completed");
    expect(await jobsOf("rsvp-invite", { data: { rsvpId: added.body.data.id } })).toHaveLength(1);
    expect(smtp.to(email)).toHaveLength(1);
    await second.signal("SIGTERM");
  }, 120_000);

  test("a web process stopped during an upload chunk finishes the chunk, exits 0, and the upload resumes on another web process", async () => {
    const { user } = await loggedInUser(baseUrl);
    const event = await createTestEvent(user);
    const photo = await makePhoto(files.path("stop.jpg"), { width: 1600, height: 1200 });
    const bytes = await fs.readFile(photo);
    const half = Math.floor(bytes.length / 2);
    const upload = await create(baseUrl, bytes.length, {
      eventUuid: event.uuid,
      filename: "stop.jpg",
      filetype: "image/jpeg",
      contributorName: "Noor",
      purpose: "contribution",
      uploadToken: crypto.randomBytes(24).toString("base64url"),
    });
    const other = await anotherWebProcess();

    // The first half as one chunk, sent slowly: SIGTERM arrives while it is under way.
    let exited: Promise<number | null> | undefined;
    const answered = new Promise<{ status: number; offset: string | undefined; connection: string | undefined }>((resolve, reject) => {
      const request = http.request(new URL(upload, baseUrl), {
        method: "PATCH",
        headers: {
          "Tus-Resumable": "1.0.0",
          "Content-Type": "application/offset+octet-stream",
          "Upload-Offset": "0",
          "Content-Length": String(half),
          ...uploaderHeaders(upload),
        },
      });
      request.on("error", reject);
      request.on("response", (response) => {
        response.resume();
        resolve({
          status: response.statusCode!,
          offset: response.headers["upload-offset"] as string | undefined,
          connection: response.headers.connection,
        });
      });
      request.write(bytes.subarray(0, 1024));
      setTimeout(() => {
        exited = web.signal("SIGTERM");
        setTimeout(() => request.end(bytes.subarray(1024, half)), 1500);
      }, 300);
    });
    const chunk = await answered;
    expect(chunk).toEqual({ status: 204, offset: String(half), connection: "close" });
    expect(await exited).toBe(0);
    expect(web.output()).toContain("SIGTERM received");

    // The browser's next step: ask another process for the offset, and send the rest.
    expect(await head(other.url, upload)).toBe(half);
    const done = await patch(other.url, upload, half, bytes.subarray(half));
    expect(done.offset).toBe(bytes.length);
    expect(done.mediaUuid).toMatch(/^[0-9a-f-]{36}$/);
  }, 120_000);
});
