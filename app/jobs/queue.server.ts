import PgBoss from "pg-boss";
import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";
import { db } from "~/lib/db.server";
import { EXPIRY_GRACE_SECONDS, releaseJobsOfDeadWorker } from "~/models/job-lease.server";
import { startRunner, type Lane } from "./job-runner.server";
import { sweepOrphanWorkDirs } from "./work-dir.server";

/** Every kind of background job, by queue name, with the data it carries. */
export interface JobData {
  "rsvp-invite": { rsvpId: string };
  "rsvp-reminder": { rsvpId: string; window: string };
  "event-reminders": Record<string, never>;
  "event-broadcast": { eventId: string; message: string };
  "event-deliver": { eventId: string };
  "event-digest": { eventId: string };
  // Media processing in two lanes (docs/decisions/015): photos and small clips, large clips.
  "media-small": { mediaId: string };
  "media-large": { mediaId: string };
  // Queued before the lanes existed; worked like the large lane until none is left.
  "media-process": { mediaId: string };
  // A media job that failed for good, also when its worker died on the last attempt.
  "media-dead": { mediaId: string };
  "track-process": { trackId: string };
  // A track whose processing failed for good, also when its worker died on the last attempt.
  "track-dead": { trackId: string };
  "render-prepare": { eventId: string };
  "render-run": { renderJobId: string };
  "render-recover": Record<string, never>;
  "uploads-expire": Record<string, never>;
  "render-pieces-sweep": Record<string, never>;
}
export type JobName = keyof JobData;
/** `finalAttempt`: no retry follows if this one fails, so a handler can leave a clear state behind. */
/** `startedOn`: when this attempt started, which tells it apart from another attempt of the same job. */
export type JobHandler<N extends JobName> = (job: { id: string; data: JobData[N]; finalAttempt: boolean; startedOn: Date }) => Promise<void>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };

// The dead-letter queue comes before the queues that name it.
const QUEUES: JobName[] = ["rsvp-invite", "rsvp-reminder", "event-reminders", "event-broadcast", "event-deliver", "event-digest", "media-dead", "media-small", "media-large", "media-process", "track-dead", "track-process", "render-prepare", "render-run", "render-recover", "uploads-expire", "render-pieces-sweep"];

// Queues whose jobs always carry a singletonKey use pg-boss's "short" policy: at most one
// job per key waits at a time, so a double click or a burst of uploads queues one job.
const KEYED: ReadonlySet<JobName> = new Set(["rsvp-invite", "rsvp-reminder", "event-deliver", "event-digest", "media-small", "media-large", "media-process", "track-process", "render-prepare", "render-run"]);

const DEAD_LETTER: Partial<Record<JobName, JobName>> = { "media-small": "media-dead", "media-large": "media-dead", "track-process": "track-dead" };

/** Jobs of one queue at a time in a process: the media lanes have their own (see env.server.ts). */
const slotsOf = (name: JobName) =>
  name === "media-small" ? env().MEDIA_SMALL_CONCURRENCY : name === "media-large" ? env().MEDIA_LARGE_CONCURRENCY : 1;

// Renders keep their own heartbeat and recovery in render_jobs (recoverStalledRenders), which
// also resumes from stored pieces: the queue's lease would only run them twice.
const UNLEASED: ReadonlySet<JobName> = new Set(["render-run"]);

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
  runner: { stop: (timeoutMs: number) => Promise<void> } | null;
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
  boss.on("error", (error) => console.error("job queue:", error));
  await boss.start();
  for (const name of QUEUES) {
    const deadLetter = DEAD_LETTER[name];
    const policy = KEYED.has(name) ? "short" : "standard";
    await boss.createQueue(name, { name, policy, ...(deadLetter ? { deadLetter } : {}) });
    // A queue made before it had a dead-letter queue gets it (createQueue leaves an existing one be).
    if (deadLetter) await boss.updateQueue(name, { name, policy, deadLetter });
  }
  state().queue = { boss, runner: null };
  if (handlers) {
    const lanes: Lane[] = QUEUES.map((name) => ({
      name,
      slots: slotsOf(name),
      leased: !UNLEASED.has(name),
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
    state().queue!.runner = startRunner(boss, lanes);
    // Reminders are found by a sweep rather than scheduled per invitee, so a deadline change needs no bookkeeping.
    await boss.schedule("event-reminders", "*/10 * * * *", {});
    await boss.schedule("uploads-expire", "17 * * * *", {});
    // Renders whose worker died are taken up again by the next sweep (see recoverStalledRenders).
    await boss.schedule("render-recover", "* * * * *", {});
    // Rendered pieces nobody has used for a while (RENDER_PIECE_RETENTION_DAYS) leave storage nightly.
    await boss.schedule("render-pieces-sweep", "41 3 * * *", {});
  }
  return boss;
}

export async function stopJobQueue() {
  const queue = state().queue;
  if (!queue) return;
  state().queue = null;
  await queue.runner?.stop(10_000);
  await queue.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
}

function boss() {
  const queue = state().queue;
  if (!queue) throw new Error("The job queue is not started.");
  return queue.boss;
}

/** Queues a job. With a singletonKey, a second identical job is not queued while the first waits. */
export async function enqueue<N extends JobName>(
  name: N,
  data: JobData[N],
  options: { singletonKey?: string; startAfter?: Date; singletonSeconds?: number; expireInSeconds?: number } = {},
) {
  return boss().send(name, data, { ...retryPolicy(), expireInSeconds: leaseExpirySeconds(), ...options });
}

/** For tests and tools: a job's state. */
export async function jobState(name: JobName, id: string) {
  return (await boss().getJobById(name, id, { includeArchive: true }))?.state ?? null;
}
