import { sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

// How each queue is doing, read from pg-boss's own tables in the queue's schema (JOB_QUEUE_SCHEMA):
// its live jobs in `job`, and those it has since moved away in `archive`.

export interface QueueCounts {
  name: string;
  waiting: number;
  active: number;
  failedLastDay: number;
  /** When the longest-waiting job that may run now was queued; null when none is waiting. */
  oldestWaitingSince: Date | null;
}

const table = (schema: string, name: "job" | "archive") => sql`${sql.identifier(schema)}.${sql.identifier(name)}`;

/**
 * Counts per queue `name`: waiting (created or to be retried, and due to start), running, failed in
 * the last 24 hours (still in the queue or archived), and the queued time of the oldest waiting job.
 * A queue with no job at all is there with zeros.
 */
export async function countJobsByQueue(db: Db, schema: string, names: readonly string[]): Promise<QueueCounts[]> {
  if (!names.length) return [];
  const nameList = sql.join(
    names.map((name) => sql`${name}`),
    sql`, `,
  );
  const live = await db.execute<{ name: string; waiting: number; active: number; failed: number; oldest: string | Date | null }>(sql`
    select name,
      (count(*) filter (where state in ('created', 'retry') and start_after <= now()))::int as waiting,
      (count(*) filter (where state = 'active'))::int as active,
      (count(*) filter (where state = 'failed' and completed_on > now() - interval '24 hours'))::int as failed,
      min(created_on) filter (where state in ('created', 'retry') and start_after <= now()) as oldest
    from ${table(schema, "job")}
    where name in (${nameList})
    group by name`);
  const archived = await db.execute<{ name: string; failed: number }>(sql`
    select name, count(*)::int as failed
    from ${table(schema, "archive")}
    where name in (${nameList}) and state = 'failed' and completed_on > now() - interval '24 hours'
    group by name`);
  const liveByName = new Map([...live].map((row) => [row.name, row]));
  const archivedByName = new Map([...archived].map((row) => [row.name, row.failed]));
  return names.map((name) => {
    const row = liveByName.get(name);
    return {
      name,
      waiting: row?.waiting ?? 0,
      active: row?.active ?? 0,
      failedLastDay: (row?.failed ?? 0) + (archivedByName.get(name) ?? 0),
      oldestWaitingSince: row?.oldest ? new Date(row.oldest) : null,
    };
  });
}
