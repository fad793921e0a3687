import type PgBoss from "pg-boss";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { releaseLapsedJobs, renewJobLease } from "~/models/job-lease.server";

// Works the queues of this process (docs/decisions/015). pg-boss's own `work()` runs one job per
// queue at a time and fails a job locally once its `expire_in` has passed, whatever the job is
// doing: neither fits slots that run several jobs of one lane at once under a short lease. So
// this loop fetches, keeps the lease of what it runs, and completes or fails it itself.

export interface Lane {
  name: string;
  /** Jobs of this queue run at the same time in this process. */
  slots: number;
  /** Held under a lease renewed by a heartbeat; false for jobs that keep their own (renders). */
  leased: boolean;
  run: (job: PgBoss.JobWithMetadata<unknown>) => Promise<void>;
}

interface Runner {
  stop: (timeoutMs: number) => Promise<void>;
}

const errorOutput = (error: unknown) =>
  error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { message: String(error) };

/**
 * Starts every lane's slots, and the sweep that runs again the jobs of workers that died; the
 * sweep also runs `alsoOnSweep` (recoveries of their own, such as renders').
 */
export function startRunner(boss: PgBoss, lanes: Lane[], alsoOnSweep: readonly (() => Promise<void>)[] = []): Runner {
  const settings = env();
  const schema = settings.JOB_QUEUE_SCHEMA;
  let stopping = false;
  // An idle slot waits for the poll interval, or less when the sweep releases work for its queue.
  const waiting = new Map<string, Set<() => void>>();
  const wake = (name: string) => {
    for (const resolve of waiting.get(name) ?? []) resolve();
  };
  const idle = (name: string) =>
    new Promise<void>((resolve) => {
      const set = waiting.get(name) ?? new Set();
      waiting.set(name, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        resolve();
      };
      const timer = setTimeout(done, settings.JOB_POLL_SECONDS * 1000);
      set.add(done);
    });

  async function runOne(lane: Lane, job: PgBoss.JobWithMetadata<unknown>) {
    let lost = false;
    const renew = async () => {
      // A database hiccup is not a lost lease: the next beat tries again, well within the lease.
      const held = await renewJobLease(db(), schema, job, settings.JOB_LEASE_SECONDS).catch(() => true);
      if (!held && !lost) {
        lost = true;
        console.warn(`job ${lane.name} ${job.id}: its lease lapsed and it was handed on; this run's result is dropped`);
      }
    };
    let heartbeat: NodeJS.Timeout | undefined;
    if (lane.leased) {
      // At once: a scheduled job was sent with the queue's default expiry, not a lease.
      await renew();
      heartbeat = setInterval(renew, settings.JOB_HEARTBEAT_SECONDS * 1000);
    }
    try {
      await lane.run(job);
      if (!lost) await boss.complete(lane.name, job.id);
    } catch (error) {
      if (!lost) await boss.fail(lane.name, job.id, errorOutput(error)).catch(() => {});
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function slot(lane: Lane) {
    while (!stopping) {
      let job: PgBoss.JobWithMetadata<unknown> | undefined;
      try {
        [job] = await boss.fetch(lane.name, { batchSize: 1, includeMetadata: true });
      } catch (error) {
        console.warn(`job queue: fetching from ${lane.name} failed:`, error);
      }
      if (job) await runOne(lane, job);
      else if (!stopping) await idle(lane.name);
    }
  }

  const leasedNames = lanes.filter((lane) => lane.leased).map((lane) => lane.name);
  let sweeping = false;
  async function sweep() {
    if (sweeping || stopping) return;
    sweeping = true;
    try {
      const { released, exhausted } = await releaseLapsedJobs(db(), schema, leasedNames);
      for (const job of released) wake(job.name);
      // Its last attempt died with its worker: failed like any last attempt, so a dead-letter
      // queue hears of it (media items then say they failed instead of "processing" for ever).
      for (const job of exhausted) await boss.fail(job.name, job.id, { message: "its worker stopped answering on the last attempt" });
      if (released.length || exhausted.length) {
        console.info(`job queue: ${released.length} job(s) of dead workers run again, ${exhausted.length} failed on their last attempt`);
      }
    } catch (error) {
      console.warn("job queue: the lease sweep failed:", error instanceof Error ? error.message : error);
    }
    for (const recover of alsoOnSweep) {
      await recover().catch((error: unknown) =>
        console.warn("job queue: a recovery sweep failed:", error instanceof Error ? error.message : error),
      );
    }
    sweeping = false;
  }

  const loops = lanes.flatMap((lane) => Array.from({ length: lane.slots }, () => slot(lane)));
  void sweep();
  const sweeper = setInterval(sweep, settings.JOB_SWEEP_SECONDS * 1000);

  return {
    async stop(timeoutMs) {
      stopping = true;
      clearInterval(sweeper);
      for (const name of waiting.keys()) wake(name);
      // Jobs still running when the time is up keep their lease until it lapses; another worker
      // then runs them again.
      await Promise.race([Promise.all(loops), new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
    },
  };
}
