import { sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

// Leases on running jobs, kept in pg-boss's own job table (docs/decisions/015). pg-boss 10 has no
// heartbeat: a job's `expire_in`, counted from `started_on`, is its lease, and a worker renews it
// by moving the end forward. These are the only queries that touch pg-boss's tables directly, and
// `jobStatementsThrough` below runs pg-boss's own statements through one of our handles.

const jobTable = (schema: string) => sql`${sql.identifier(schema)}.job`;

/**
 * pg-boss's own expiry (its maintenance, every two minutes) sees a lease this much longer than the
 * sweep below does, so the sweep, which runs a dead worker's job again at once, comes first; pg-boss
 * would wait out the retry delay. Its expiry stays as the backstop when no worker sweeps at all.
 */
export const EXPIRY_GRACE_SECONDS = 60;
const grace = sql`make_interval(secs => ${EXPIRY_GRACE_SECONDS})`;

/** Queue names as one text[] parameter (queue names hold no commas or braces: the catalogue's own). */
const nameArray = (names: readonly string[]) => sql`${`{${names.join(",")}}`}::text[]`;

const idList = (jobs: readonly { id: string }[]) =>
  sql.join(
    jobs.map((job) => sql`${job.id}::uuid`),
    sql`, `,
  );

/**
 * Renews the leases of running jobs of one queue: each now ends `seconds` from now. Returns the
 * ids still held; a job missing from it is no longer this worker's (finished, or already handed
 * to another worker after its lease lapsed).
 */
export async function renewJobLeases(db: Db, schema: string, name: string, jobs: readonly { id: string }[], seconds: number) {
  if (!jobs.length) return new Set<string>();
  const rows = await db.execute<{ id: string }>(sql`
    update ${jobTable(schema)}
    set expire_in = (now() - started_on) + make_interval(secs => ${seconds}) + ${grace}
    where name = ${name} and id in (${idList(jobs)}) and state = 'active'
    returning id::text as id`);
  return new Set(rows.map((row) => row.id));
}

/**
 * Running jobs this worker gives back as it stops (a graceful shutdown): ready to run again at
 * once, elsewhere, and not counted as an attempt (pg-boss counts a retry when it fetches a job
 * that has started before, so the start is forgotten). Only the attempt this worker holds: the
 * same start, to the millisecond. Returns the queues of the jobs handed back.
 */
export async function handBackJobs(db: Db, schema: string, jobs: readonly { name: string; id: string; startedOn: Date }[]) {
  const names: string[] = [];
  for (const job of jobs) {
    const rows = await db.execute(sql`
      update ${jobTable(schema)}
      set state = 'retry', start_after = now(), started_on = null,
        output = jsonb_build_object('message', 'its worker stopped and handed it back: run again')
      where name = ${job.name} and id = ${job.id} and state = 'active'
        and abs(extract(epoch from started_on) - ${job.startedOn.getTime() / 1000}) < 0.001
      returning id`);
    if (rows.length) names.push(job.name);
  }
  return names;
}

/**
 * Tells every process listening on `channel` that these queues have jobs to run (a NOTIFY per
 * queue). Through a transaction, the notification leaves when it commits, with the job.
 */
export async function notifyJobsReady(db: Db, channel: string, names: readonly string[]) {
  const unique = [...new Set(names)];
  if (!unique.length) return;
  await db.execute(sql`select pg_notify(${channel}, name) from unnest(${nameArray(unique)}) as name`);
}

/**
 * Which of the given queues have a job ready to run now (waiting, or to be retried, and due): one
 * statement for every queue of a worker, on pg-boss's own fetch index, where a fetch per queue took
 * as many statements as the process has queues at every poll.
 */
export async function queuesWithDueJobs(db: Db, schema: string, names: readonly string[]) {
  if (!names.length) return [];
  const rows = await db.execute<{ name: string }>(sql`
    select distinct name from ${jobTable(schema)}
    where name = any(${nameArray(names)}) and state < 'active' and start_after < now()`);
  return rows.map((row) => row.name);
}

/**
 * Jobs of the given queues whose lease lapsed (their worker stopped renewing it: it died or lost
 * the database). Those with attempts left are made ready to run again at once, not after the
 * retry delay a failure waits: a dead worker says nothing about the job. Returns what it released
 * and, separately, the lapsed jobs that were on their last attempt (the caller fails those).
 */
export async function releaseLapsedJobs(db: Db, schema: string, names: readonly string[]) {
  if (!names.length) return { released: [], exhausted: [] };
  const nameList = sql.join(
    names.map((name) => sql`${name}`),
    sql`, `,
  );
  const released = await db.execute<{ name: string; id: string }>(sql`
    update ${jobTable(schema)}
    set state = 'retry', start_after = now(),
      output = jsonb_build_object('message', 'its worker stopped answering: run again')
    where name in (${nameList}) and state = 'active'
      and started_on + expire_in - ${grace} < now() and retry_count < retry_limit
    returning name, id::text as id`);
  const exhausted = await db.execute<{ name: string; id: string }>(sql`
    select name, id::text as id from ${jobTable(schema)}
    where name in (${nameList}) and state = 'active'
      and started_on + expire_in - ${grace} < now() and retry_count >= retry_limit`);
  return { released: [...released], exhausted: [...exhausted] };
}

/**
 * Jobs whose worker is known to be dead (its process is gone: see sweepOrphanWorkDirs) are made
 * ready to run again without waiting for their lease to lapse, unless they were already handed
 * on: the same start, to the millisecond, is the dead worker's attempt.
 */
export async function releaseJobsOfDeadWorker(db: Db, schema: string, jobs: readonly { name: string; id: string; startedOn: Date }[]) {
  let released = 0;
  for (const job of jobs) {
    const rows = await db.execute(sql`
      update ${jobTable(schema)}
      set state = 'retry', start_after = now(),
        output = jsonb_build_object('message', 'its worker stopped: run again')
      where name = ${job.name} and id = ${job.id} and state = 'active' and retry_count < retry_limit
        and abs(extract(epoch from started_on) - ${job.startedOn.getTime() / 1000}) < 0.001
      returning id`);
    released += rows.length;
  }
  return released;
}

/** A statement's values as pg would send them: job data as JSON, and an unset option as null. */
const asParameter = (value: unknown) => {
  if (value === undefined) return null;
  return value !== null && typeof value === "object" && !(value instanceof Date) ? JSON.stringify(value) : value;
};

/**
 * pg-boss's way to run its statements through another connection (the `db` option of `send`, in
 * pg-boss 10's types): here through a drizzle handle, so a job sent inside one of our transactions
 * is queued if, and only if, that transaction commits (docs/decisions/020). pg-boss writes `$1`…
 * `$n`; each becomes a bound parameter of ours.
 */
export function jobStatementsThrough(db: Db) {
  return {
    async executeSql(text: string, values: unknown[]) {
      const parts = text.split(/\$(\d+)/);
      const statement = sql.join(parts.map((part, index) => (index % 2 ? sql`${asParameter(values[Number(part) - 1])}` : sql.raw(part))));
      return { rows: [...(await db.execute(statement))] };
    },
  };
}

/** Whether a job of `name` under `singletonKey` was sent after `since` (run or not), or waits to run. */
export async function jobSentSince(db: Db, schema: string, name: string, singletonKey: string, since: Date) {
  const rows = await db.execute(sql`
    select 1 from ${jobTable(schema)}
    where name = ${name} and singleton_key = ${singletonKey} and (created_on > ${since.toISOString()}::timestamptz or state in ('created', 'retry'))
    limit 1`);
  return rows.length > 0;
}
