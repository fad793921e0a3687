import type PgBoss from "pg-boss";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { handBackJobs, queuesWithDueJobs, releaseLapsedJobs, renewJobLeases } from "~/models/job-lease.server";

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
  /** A queue has jobs ready (a notification): its idle slots look at once instead of at the next poll. */
  wake: (name: string) => void;
  /** Every queue may have jobs ready (the notifications were not heard for a while). */
  wakeAll: () => void;
  /**
   * Takes no more jobs, gives running ones `timeoutMs` to finish, and hands the rest back to the
   * queue (not counted as an attempt): another worker runs them at once, not when their leases lapse.
   * Returns the queues of the jobs handed back.
   */
  stop: (timeoutMs: number) => Promise<string[]>;
}

const errorOutput = (error: unknown) =>
  error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { message: String(error) };

interface Running {
  job: PgBoss.JobWithMetadata<unknown>;
  /** Its lease went to another worker (it lapsed, or the job was handed back): its result is dropped. */
  lost: boolean;
  /** Its handler has returned: a lease found gone now is the job completing, not a loss. */
  finished: boolean;
  done: Promise<void>;
}

/**
 * Starts every lane, and the sweep that runs again the jobs of workers that died; the sweep also
 * runs `alsoOnSweep` (recoveries of their own, such as renders'). A lane fetches as many jobs at
 * once as it has free slots, and waits, when the queue is empty, for a notification, a slot
 * freeing up, the sweep releasing work, or the poll finding its queue has jobs due, whichever comes
 * first. The poll is one statement for every lane every JOB_POLL_SECONDS (retries after their
 * delay, pg-boss's schedules, a notification missed): an idle worker of 39 queues asked 39 times.
 */
export function startRunner(
  boss: PgBoss,
  lanes: Lane[],
  alsoOnSweep: readonly (() => Promise<void>)[] = [],
  announce: (names: string[]) => Promise<void> = async () => {},
): Runner {
  const settings = env();
  const schema = settings.JOB_QUEUE_SCHEMA;
  let stopping = false;
  // A wake-up that came while its lane was busy fetching is kept, so the lane looks again at once.
  const signals = new Map<string, { pending: boolean; resolve: (() => void) | null }>();
  const signalOf = (name: string) => {
    let signal = signals.get(name);
    if (!signal) signals.set(name, (signal = { pending: false, resolve: null }));
    return signal;
  };
  const wake = (name: string) => {
    const signal = signals.get(name);
    if (!signal) return;
    signal.pending = true;
    signal.resolve?.();
  };
  const idle = (name: string) => {
    const signal = signalOf(name);
    if (signal.pending) {
      signal.pending = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      signal.resolve = () => {
        signal.resolve = null;
        signal.pending = false;
        resolve();
      };
    });
  };

  /** Wakes the idle lanes whose queues have jobs due; a busy lane looks again when it is done. */
  let polling = false;
  async function poll() {
    if (polling || stopping) return;
    polling = true;
    try {
      const waiting = lanes.filter((lane) => signals.get(lane.name)?.resolve).map((lane) => lane.name);
      for (const name of await queuesWithDueJobs(db(), schema, waiting)) signals.get(name)?.resolve?.();
    } catch (error) {
      console.warn("job queue: looking for jobs due failed:", error instanceof Error ? error.message : error);
    } finally {
      polling = false;
    }
  }

  const running = new Map<string, Running>();

  async function runOne(lane: Lane, entry: Running) {
    const { job } = entry;
    try {
      await lane.run(job);
      entry.finished = true;
      if (!entry.lost) await boss.complete(lane.name, job.id);
    } catch (error) {
      entry.finished = true;
      if (!entry.lost) await boss.fail(lane.name, job.id, errorOutput(error)).catch(() => {});
    }
  }

  /** Renews the leases of a lane's running jobs in one statement; a job whose lease is gone is marked lost. */
  async function renew(name: string, entries: Running[]) {
    if (!entries.length) return;
    // A database hiccup is not a lost lease: the next beat tries again, well within the lease.
    const held = await renewJobLeases(
      db(),
      schema,
      name,
      entries.map((entry) => entry.job),
      settings.JOB_LEASE_SECONDS,
    ).catch(() => null);
    if (!held) return;
    for (const entry of entries) {
      if (held.has(entry.job.id) || entry.lost || entry.finished) continue;
      entry.lost = true;
      console.warn(`job ${name} ${entry.job.id}: its lease lapsed and it was handed on; this run's result is dropped`);
    }
  }

  async function lane(lane: Lane) {
    const mine = new Set<Running>();
    while (!stopping) {
      const free = lane.slots - mine.size;
      let fetched = 0;
      if (free > 0) {
        let jobs: PgBoss.JobWithMetadata<unknown>[] = [];
        try {
          jobs = (await boss.fetch(lane.name, { batchSize: free, includeMetadata: true })) ?? [];
        } catch (error) {
          console.warn(`job queue: fetching from ${lane.name} failed:`, error);
        }
        fetched = jobs.length;
        const entries = jobs.map((job): Running => ({ job, lost: false, finished: false, done: Promise.resolve() }));
        // At once: a scheduled job was sent with the queue's default expiry, not a lease.
        if (lane.leased) await renew(lane.name, entries);
        for (const entry of entries) {
          mine.add(entry);
          running.set(entry.job.id, entry);
          entry.done = runOne(lane, entry).finally(() => {
            mine.delete(entry);
            running.delete(entry.job.id);
            wake(lane.name);
          });
        }
      }
      // A full batch: more may be waiting, and a slot may be free again already.
      if (fetched && fetched === free) continue;
      if (!stopping) await idle(lane.name);
    }
  }

  const leased = lanes.filter((lane) => lane.leased);
  const heartbeat = setInterval(() => {
    for (const lane of leased) {
      const entries = [...running.values()].filter((entry) => entry.job.name === lane.name && !entry.lost && !entry.finished);
      void renew(lane.name, entries);
    }
  }, settings.JOB_HEARTBEAT_SECONDS * 1000);

  const leasedNames = leased.map((lane) => lane.name);
  let sweeping = false;
  async function sweep() {
    if (sweeping || stopping) return;
    sweeping = true;
    try {
      const { released, exhausted } = await releaseLapsedJobs(db(), schema, leasedNames);
      for (const job of released) wake(job.name);
      // Other workers' idle slots hear of it too.
      if (released.length) await announce(released.map((job) => job.name)).catch(() => {});
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

  for (const { name } of lanes) signalOf(name);
  const loops = lanes.map((each) => lane(each));
  void sweep();
  const sweeper = setInterval(sweep, settings.JOB_SWEEP_SECONDS * 1000);
  const poller = setInterval(poll, settings.JOB_POLL_SECONDS * 1000);

  return {
    wake,
    wakeAll: () => lanes.forEach(({ name }) => wake(name)),
    async stop(timeoutMs) {
      stopping = true;
      clearInterval(sweeper);
      clearInterval(poller);
      for (const { name } of lanes) wake(name);
      await Promise.all(loops);
      let timer: NodeJS.Timeout | undefined;
      const finished = Promise.all([...running.values()].map((entry) => entry.done));
      await Promise.race([finished, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
      clearInterval(heartbeat);
      // What is still running goes back to the queue; whatever this process still does with it is
      // dropped. Renders are not: their own heartbeat stops with the process, and their recovery
      // resumes them from their stored pieces (decision 020).
      const left = [...running.values()].filter((entry) => !entry.lost && !entry.finished && leasedNames.includes(entry.job.name));
      for (const entry of left) entry.lost = true;
      const handedBack = await handBackJobs(
        db(),
        schema,
        left.map(({ job }) => ({ name: job.name, id: job.id, startedOn: job.startedOn })),
      ).catch((error: unknown) => {
        // Their leases lapse instead, and the sweep of another worker runs them again.
        console.warn("job queue: could not hand running jobs back:", error instanceof Error ? error.message : error);
        return [];
      });
      if (handedBack.length) {
        console.info(`job queue: ${handedBack.length} running job(s) handed back to the queue`);
        await announce(handedBack).catch(() => {});
      }
      return handedBack;
    },
  };
}
