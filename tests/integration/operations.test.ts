import crypto from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { loggedInUser, uniqueEmail } from "../support/accounts";
import { killAppProcesses, startWebProcess, type AppProcess } from "../support/app-processes";
import { createTestEvent } from "../support/events";
import { freePort } from "../support/global-database";
import { makeTempDir } from "../support/media-fixtures";
import { startSmtpSink } from "../support/smtp-sink";
import { testDatabaseName } from "../support/test-database";
import { applyTestEnvironment } from "../support/test-server";
import { until } from "../support/wait";

// What an operator running many machines relies on (docs/deploy.md), on the app as it runs for
// real: web processes (`server.ts`, RUN_WORKER=false) and workers (`npm run worker`) of their own.
// Health and readiness answers (readiness 503 while the database is gone), the request log, and
// the metrics behind their token.

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
    expect((await client.raw("GET", `/e/${event.uuid}`)).status).toBe(200);
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
