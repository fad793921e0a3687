import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { JOB_NAMES } from "~/jobs/catalogue";
import { jobQueueStarted } from "~/jobs/queue.server";
import { migrationsFolder } from "~/lib/database-bootstrap.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { metricsText } from "~/lib/metrics.server";
import { newestAppliedMigration, pingDatabase } from "~/models/health.server";
import { countJobsByQueue } from "~/models/job-queue.server";

// The answers a load balancer and Prometheus ask for (docs/deploy.md), the same for a web process
// (server.ts) and a worker's own small HTTP server (app/jobs/worker.server.ts):
//   /healthz  the process answers (liveness): 200 while it runs at all;
//   /readyz   it can do its work (readiness): the database answers within READY_TIMEOUT_MS, every
//             migration this code knows is applied, the job queue is started, and the process is
//             not stopping; 503 otherwise, with what failed;
//   /metrics  Prometheus text, behind METRICS_TOKEN.

export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const READY_TIMEOUT_MS = 2000;
const json = (status: number, value: unknown): PlainAnswer => ({
  status,
  headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  body: JSON.stringify(value),
});

/** The `when` of the newest migration in drizzle/migrations: what the database must have applied. */
let newestKnown: number | undefined;
function newestKnownMigration() {
  if (newestKnown === undefined) {
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
      entries: { when: number }[];
    };
    newestKnown = Math.max(0, ...journal.entries.map((entry) => entry.when));
  }
  return newestKnown;
}

export const liveness = (): PlainAnswer => json(200, { status: "ok" });

const withTimeout = <T>(work: Promise<T>) => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("no answer in time")), READY_TIMEOUT_MS)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
};

/** Readiness: each check says "ok" or why not; 503 unless every one is "ok". */
export async function readiness({ stopping }: { stopping: boolean }): Promise<PlainAnswer> {
  const checks: Record<string, string> = { accepting: stopping ? "stopping" : "ok" };
  try {
    await withTimeout(pingDatabase(db()));
    checks.database = "ok";
    const applied = await withTimeout(newestAppliedMigration(db()));
    checks.migrations = applied !== null && applied >= newestKnownMigration() ? "ok" : "pending";
  } catch (error) {
    checks.database = error instanceof Error && error.message === "no answer in time" ? "no answer in time" : "unreachable";
    checks.migrations = "unknown";
  }
  checks.queue = jobQueueStarted() ? "ok" : "not started";
  const ready = Object.values(checks).every((value) => value === "ok");
  return json(ready ? 200 : 503, { status: ready ? "ready" : "unavailable", checks });
}

const sameToken = (given: string, expected: string) => {
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
};

/** /metrics for a request with this Authorization header. */
export async function metrics(authorization: string | undefined): Promise<PlainAnswer> {
  const { METRICS_TOKEN, NODE_ENV } = env();
  if (!METRICS_TOKEN && NODE_ENV !== "development") {
    return json(403, { success: false, error: { code: "FORBIDDEN", message: "Set METRICS_TOKEN to read the metrics." } });
  }
  if (METRICS_TOKEN) {
    const given = /^Bearer (.+)$/i.exec(authorization ?? "")?.[1];
    if (!given || !sameToken(given, METRICS_TOKEN)) {
      return {
        ...json(401, { success: false, error: { code: "UNAUTHORIZED", message: "The metrics need a valid bearer token." } }),
        headers: { "Content-Type": "application/json; charset=utf-8", "WWW-Authenticate": 'Bearer realm="metrics"' },
      };
    }
  }
  const { contentType, body } = await metricsText(() => countJobsByQueue(db(), env().JOB_QUEUE_SCHEMA, JOB_NAMES));
  return { status: 200, headers: { "Content-Type": contentType, "Cache-Control": "no-store" }, body };
}
