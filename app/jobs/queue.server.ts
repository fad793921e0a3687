import PgBoss from "pg-boss";
import { withStartUpLock } from "~/lib/database-bootstrap.server";
import { isDatabaseUnavailable } from "~/lib/database-errors.server";
import { db, type Db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";
import { stopMediaTools } from "~/media/run.server";
import { EXPIRY_GRACE_SECONDS, jobStatementsThrough, notifyJobsReady, releaseJobsOfDeadWorker } from "~/models/job-lease.server";
import { isKeyed, JOB_NAMES, jobKey, jobOptions, type JobData, type JobName, type SenderKeyedJob } from "./catalogue";
import { startRunner, type Lane } from "./job-runner.server";
import { jobChannel, listenForJobs, type JobWakeups } from "./job-wakeups.server";
import { sweepOrphanWorkDirs } from "./work-dir.server";

export type { JobData, JobName } from "./catalogue";
/** `finalAttempt`: no retry follows if this one fails, so a handler can leave a clear state behind. */
/** `startedOn`: when this attempt started, which tells it apart from another attempt of the same job. */
export type JobHandler<N extends JobName> = (job: {
  id: string;
  data: JobData[N];
  finalAttempt: boolean;
  startedOn: Date;
}) => Promise<void>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };

/** Jobs of one queue at a time in a process: the media and message lanes say theirs in settings. */
const slotsOf = (name: JobName) => {
  const setting = jobOptions(name).slots;
  return setting ? env()[setting] : 1;
};

/** What a job may hold before its first heartbeat: the lease, plus what pg-boss's expiry waits on top. */
const leaseExpirySeconds = () => env().JOB_LEASE_SECONDS + EXPIRY_GRACE_SECONDS;

// Retried with growing delays (pg-boss doubles the delay each time with retryBackoff).
const retryPolicy = () => ({
  retryLimit: env().JOB_RETRY_LIMIT,
  retryDelay: env().JOB_RETRY_DELAY_SECONDS,
  retryBackoff: true,
});

interface Queue {
  boss: PgBoss;
  runner: ReturnType<typeof startRunner> | null;
  wakeups: JobWakeups | null;
}

const state = () => singleton<{ queue: Queue | null }>("jobQueue", () => ({ queue: null }));

/**
 * Starts the PostgreSQL job queue (pg-boss, in its own schema, JOB_QUEUE_SCHEMA). With
 * handlers, this process also works jobs; without, it only sends them.
 */
export async function startJobQueue(databaseUrl: string, handlers?: JobHandlers) {
  if (state().queue) return state().queue!.boss;
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: env().JOB_QUEUE_SCHEMA,
    // Slots of every lane, the sweep and the heartbeats share these connections.
    max: 6,
    schedule: !!handlers,
    supervise: !!handlers,
    // Scheduled jobs are sent by pg-boss itself: they start with a lease too.
    expireInSeconds: leaseExpirySeconds(),
  });
  boss.on("error", (error) => {
    // A lost connection is said in a line: the pool opens another when it is next needed.
    if (isDatabaseUnavailable(error)) console.warn("job queue: the database is unavailable:", error.message);
    else console.error("job queue:", error);
  });
  // pg-boss's schema and its migrations, then every queue, by one starting process at a time: two
  // processes creating the same queue at once deadlock (database-bootstrap.server.ts).
  await withStartUpLock(databaseUrl, async () => {
    await boss.start();
    for (const name of JOB_NAMES) {
      const { deadLetter } = jobOptions(name);
      const policy = isKeyed(name) ? "short" : "standard";
      await boss.createQueue(name, { name, policy, ...(deadLetter ? { deadLetter } : {}) });
      // A queue made before it had a dead-letter queue gets it (createQueue leaves an existing one be).
      if (deadLetter) await boss.updateQueue(name, { name, policy, deadLetter });
    }
  });
  state().queue = { boss, runner: null, wakeups: null };
  if (handlers) {
    const lanes: Lane[] = JOB_NAMES.map((name) => ({
      name,
      slots: slotsOf(name),
      leased: jobOptions(name).leased !== false,
      run: (job: PgBoss.JobWithMetadata<unknown>) =>
        (handlers[name] as JobHandler<JobName>)({
          id: job.id,
          data: job.data as JobData[JobName],
          finalAttempt: job.retryCount >= job.retryLimit,
          startedOn: job.startedOn,
        }),
    }));
    // What workers killed on this machine left in their job folders goes before new work starts,
    // and their jobs run again now rather than when their leases lapse.
    const orphans = await sweepOrphanWorkDirs();
    const handedOn = await releaseJobsOfDeadWorker(db(), env().JOB_QUEUE_SCHEMA, orphans.deadJobs);
    if (orphans.removed) console.info(`job queue: removed ${orphans.removed} folder(s) of stopped workers; ${handedOn} job(s) run again`);
    // Kinds declared `sweep` also run with every lease sweep (render recovery: within a minute).
    const alsoOnSweep = JOB_NAMES.filter((name) => jobOptions(name).sweep).map(
      (name) => () =>
        (handlers[name] as JobHandler<JobName>)({
          id: `sweep:${name}`,
          data: {} as JobData[JobName],
          finalAttempt: true,
          startedOn: new Date(),
        }),
    );
    const channel = jobChannel(env().JOB_QUEUE_SCHEMA);
    const runner = startRunner(boss, lanes, alsoOnSweep, (names) => notifyJobsReady(db(), channel, names));
    state().queue!.runner = runner;
    // Idle slots wake when any process sends a job (docs/decisions/032).
    state().queue!.wakeups = listenForJobs(databaseUrl, channel, runner.wake, runner.wakeAll);
    for (const name of JOB_NAMES) {
      const { schedule } = jobOptions(name);
      if (schedule) await boss.schedule(name, schedule, {});
    }
  }
  return boss;
}

/**
 * Stops working jobs: no more are taken; running ones have `graceMs` to finish, then are handed
 * back to the queue for another worker (renders resume elsewhere through their own heartbeat), and
 * the ffmpeg processes this process started are stopped, so none outlives it. Jobs can still be
 * sent until stopJobQueue.
 */
export async function stopWorkingJobs(graceMs = env().SHUTDOWN_GRACE_SECONDS * 1000) {
  const queue = state().queue;
  if (!queue?.runner) return;
  const { runner, wakeups } = queue;
  queue.runner = null;
  queue.wakeups = null;
  await wakeups?.close();
  await runner.stop(graceMs);
  stopMediaTools();
}

/** Stops the queue, working jobs first (stopWorkingJobs). */
export async function stopJobQueue(graceMs = env().SHUTDOWN_GRACE_SECONDS * 1000) {
  await stopWorkingJobs(graceMs);
  const queue = state().queue;
  if (!queue) return;
  state().queue = null;
  await queue.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
}

/** Whether this process's job queue is started (readiness, docs/deploy.md). */
export const jobQueueStarted = () => state().queue !== null;

function boss() {
  const queue = state().queue;
  if (!queue) throw new Error("The job queue is not started.");
  return queue.boss;
}

interface SendOptions {
  startAfter?: Date;
  singletonSeconds?: number;
  expireInSeconds?: number;
  /** A transaction: the job is queued if it commits, and not at all if it does not. */
  db?: Db;
}

/**
 * The key a sender gives: required where the catalogue leaves it to the sender, and not taken
 * where the catalogue makes it (or the job is not keyed), so no keyed job leaves without its key.
 */
type SenderKey<N extends JobName> = N extends SenderKeyedJob ? { singletonKey: string } : { singletonKey?: never };

/** enqueue's options: a job whose sender names its key cannot be sent without them. */
type EnqueueOptions<N extends JobName> = N extends SenderKeyedJob
  ? [options: SendOptions & SenderKey<N>]
  : [options?: SendOptions & SenderKey<N>];

/** The key a job is sent with: the catalogue's, or the one its sender named. */
const singletonKeyOf = <N extends JobName>(name: N, data: JobData[N], given: string | undefined) => jobKey(name, data) ?? given;

/**
 * Queues a job. A keyed job goes with its key (the catalogue's, or the sender's where the catalogue
 * says so): a second job with the same key is not queued while the first waits.
 * With `db` (a transaction), the job is written through it: queued if the transaction commits, and
 * not at all if it does not, so a row and the job that acts on it are saved together or not at all.
 */
export async function enqueue<N extends JobName>(name: N, data: JobData[N], ...[options = {}]: EnqueueOptions<N>) {
  const { db: through, singletonKey, ...rest } = options as SendOptions & { singletonKey?: string };
  const key = singletonKeyOf(name, data, singletonKey);
  const id = await boss().send(name, data, {
    ...retryPolicy(),
    expireInSeconds: leaseExpirySeconds(),
    ...rest,
    ...(key === undefined ? {} : { singletonKey: key }),
    ...(through ? { db: jobStatementsThrough(through) } : {}),
  });
  // Wakes an idle slot of any worker now rather than at its next poll; through a transaction, the
  // notification leaves when it commits. A job that waits (startAfter) is left to the poll.
  if (id && !rest.startAfter) {
    await notifyJobsReady(through ?? db(), jobChannel(env().JOB_QUEUE_SCHEMA), [name]).catch((error: unknown) => {
      // The job is queued all the same: a slot finds it at its next poll.
      if (through) throw error;
    });
  }
  return id;
}

/**
 * Queues many jobs of one kind in one statement (pg-boss's `insert`), each with its key as `enqueue`
 * makes it (a key already waiting is passed over); with `db`, through that transaction, as `enqueue`.
 */
export async function enqueueMany<N extends JobName>(
  name: N,
  jobs: readonly ({ data: JobData[N] } & SenderKey<N>)[],
  { db: through }: { db?: Db } = {},
) {
  if (!jobs.length) return;
  const policy = retryPolicy();
  await boss().insert(
    jobs.map((job) => {
      const singletonKey = singletonKeyOf(name, job.data, (job as { singletonKey?: string }).singletonKey);
      return { name, data: job.data, singletonKey, ...policy, expireInSeconds: leaseExpirySeconds() };
    }),
    through ? { db: jobStatementsThrough(through) } : {},
  );
  await notifyJobsReady(through ?? db(), jobChannel(env().JOB_QUEUE_SCHEMA), [name]).catch((error: unknown) => {
    if (through) throw error;
  });
}
