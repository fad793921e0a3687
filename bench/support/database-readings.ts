// What the database says about a bench step: how long jobs waited in each queue (lane) and ran, and
// how many connections were open. Read from the bench's own connection (db()).
import { sql } from "drizzle-orm";
import { db } from "~/lib/db.server";

export interface LaneReading {
  lane: string;
  jobs: number;
  /** Seconds from a job being due (created, or its start_after) to a worker starting it. */
  waitP50: number;
  waitP95: number;
  /** Seconds of running, summed over the lane's finished jobs. */
  runSeconds: number;
  /** Jobs of the step due and not started yet, and how long the oldest of them has waited. */
  waiting: number;
  oldestWaiting: number;
}

/** Every queue's jobs created from `since` on, with pg-boss's own times (job and archive tables). */
export async function laneReadings(schema: string, since: Date): Promise<LaneReading[]> {
  const jobs = sql.raw(`${schema}.job`);
  const rows = await db().execute<{
    lane: string;
    jobs: number;
    wait_p50: number | null;
    wait_p95: number | null;
    run_seconds: number | null;
    waiting: number;
    oldest_waiting: number | null;
  }>(sql`
    with step as (
      select name, started_on, completed_on, greatest(created_on, start_after) as due
      from ${jobs} where created_on >= ${since.toISOString()}::timestamptz and name not like '\_\_pgboss%'
    )
    select name as lane, count(*)::int as jobs,
      percentile_cont(0.5) within group (order by extract(epoch from started_on - due)) filter (where started_on is not null) as wait_p50,
      percentile_cont(0.95) within group (order by extract(epoch from started_on - due)) filter (where started_on is not null) as wait_p95,
      sum(extract(epoch from completed_on - started_on)) filter (where completed_on is not null) as run_seconds,
      count(*) filter (where started_on is null and due <= now())::int as waiting,
      max(extract(epoch from now() - due)) filter (where started_on is null and due <= now()) as oldest_waiting
    from step group by name order by name`);
  return rows.map((row) => ({
    lane: row.lane,
    jobs: row.jobs,
    waitP50: Number(row.wait_p50 ?? 0),
    waitP95: Number(row.wait_p95 ?? 0),
    runSeconds: Number(row.run_seconds ?? 0),
    waiting: row.waiting,
    oldestWaiting: Number(row.oldest_waiting ?? 0),
  }));
}

/** Samples the connections open to the bench's database (all, and those running a statement) until stopped. */
export function sampleConnections(everyMs = 2000) {
  let peak = { open: 0, active: 0 };
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      const [row] = await db()
        .execute<{ open: number; active: number }>(
          sql`select count(*)::int as open, (count(*) filter (where state = 'active'))::int - 1 as active
              from pg_stat_activity where datname = current_database()`,
        )
        .catch(() => [{ open: 0, active: 0 }]);
      peak = { open: Math.max(peak.open, row!.open), active: Math.max(peak.active, row!.active) };
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    /** The peaks since the last call, then starts counting afresh. */
    take() {
      const taken = peak;
      peak = { open: 0, active: 0 };
      return taken;
    },
    async stop() {
      sampling = false;
      await loop;
    },
  };
}

export async function maxConnections() {
  const [row] = await db().execute<{ max_connections: string }>(sql`show max_connections`);
  return Number(row!.max_connections);
}
