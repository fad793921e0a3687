import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { JobName } from "~/jobs/catalogue";
import { db } from "~/lib/db.server";
import { findRenderJob } from "~/models/render-job.server";
import { until } from "./wait";

/** A job as pg-boss keeps it, in its queue or, once done with, in its archive. */
export interface QueuedJob {
  id: string;
  name: string;
  state: "created" | "retry" | "active" | "completed" | "cancelled" | "failed";
  singletonKey: string | null;
  data: Record<string, unknown>;
  startAfter: Date;
  completedOn: Date | null;
}

/** States a job leaves no more: nothing it does is still to come. */
const FINISHED = new Set<QueuedJob["state"]>(["completed", "cancelled", "failed"]);

export interface JobFilter {
  /** The job's singletonKey exactly. */
  singletonKey?: string;
  /** Fields the job's data carries (a JSON containment test). */
  data?: Record<string, unknown>;
}

/**
 * The jobs of queue `name` this test file's server queued (its own schema, JOB_QUEUE_SCHEMA), oldest
 * first. Tests may read the queue; app code goes through app/jobs.
 */
export async function jobsOf(name: JobName, filter: JobFilter = {}): Promise<QueuedJob[]> {
  const schema = process.env.JOB_QUEUE_SCHEMA;
  if (!schema) throw new Error("JOB_QUEUE_SCHEMA is not set: start the test server first");
  const conditions = [sql`name = ${name}`];
  if (filter.singletonKey !== undefined) conditions.push(sql`singleton_key = ${filter.singletonKey}`);
  if (filter.data) conditions.push(sql`data @> ${JSON.stringify(filter.data)}::jsonb`);
  const where = sql.join(conditions, sql` and `);
  const columns = sql`id::text, name, state::text, singleton_key, data, start_after, completed_on, created_on`;
  const rows = await db().execute<{
    id: string;
    name: string;
    state: QueuedJob["state"];
    singleton_key: string | null;
    data: Record<string, unknown>;
    start_after: string | Date;
    completed_on: string | Date | null;
  }>(
    sql`select ${columns} from ${sql.identifier(schema)}.job where ${where}
        union all select ${columns} from ${sql.identifier(schema)}.archive where ${where}
        order by created_on`,
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    state: row.state,
    singletonKey: row.singleton_key,
    data: row.data,
    startAfter: new Date(row.start_after),
    completedOn: row.completed_on === null ? null : new Date(row.completed_on),
  }));
}

/**
 * Waits until queue `name` holds at least `atLeast` jobs matching `filter` and every one of them is
 * finished (completed, failed or cancelled), and returns them: after this, nothing those jobs do is
 * still to come, so a test can assert what did not happen.
 */
export async function untilJobsFinished(
  name: JobName,
  filter: JobFilter = {},
  { atLeast = 1, timeout = 30_000 }: { atLeast?: number; timeout?: number } = {},
): Promise<QueuedJob[]> {
  let seen: QueuedJob[] = [];
  return until(
    async () => {
      seen = await jobsOf(name, filter);
      return seen.length >= atLeast && seen.every((job) => FINISHED.has(job.state)) && seen;
    },
    {
      timeout,
      interval: 100,
      what: () =>
        `${atLeast}+ "${name}" job(s) matching ${JSON.stringify(filter)} to finish (seen: ${seen.map((j) => j.state).join(", ") || "none"})`,
    },
  );
}

/**
 * Waits until render job `id` has ended (succeeded, failed or cancelled) and expects it to have
 * succeeded, with its error as the message when it did not. Answers its row.
 */
export async function renderSucceeded(id: string, { timeout = 180_000 }: { timeout?: number } = {}) {
  let status: string | undefined;
  const job = await until(
    async () => {
      const row = await findRenderJob(db(), id);
      status = row?.status;
      return row && ["succeeded", "failed", "cancelled"].includes(row.status) ? row : null;
    },
    { timeout, what: () => `render ${id}, still ${status}` },
  );
  expect(job.status, job.error ?? "").toBe("succeeded");
  return job;
}
