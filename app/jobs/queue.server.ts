import PgBoss from "pg-boss";
import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";

/** Every kind of background job, by queue name, with the data it carries. */
export interface JobData {
  "rsvp-invite": { rsvpId: string };
  "rsvp-reminder": { rsvpId: string; window: string };
  "event-reminders": Record<string, never>;
  "event-broadcast": { eventId: string; message: string };
  "event-deliver": { eventId: string };
  "event-digest": { eventId: string };
  "media-process": { mediaId: string };
  "track-process": { trackId: string };
  "render-prepare": { eventId: string };
  "render-run": { renderJobId: string };
  "render-recover": Record<string, never>;
  "uploads-expire": Record<string, never>;
  "render-pieces-sweep": Record<string, never>;
}
export type JobName = keyof JobData;
/** `finalAttempt`: no retry follows if this one fails, so a handler can leave a clear state behind. */
export type JobHandler<N extends JobName> = (job: { id: string; data: JobData[N]; finalAttempt: boolean }) => Promise<void>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };

const QUEUES: JobName[] = ["rsvp-invite", "rsvp-reminder", "event-reminders", "event-broadcast", "event-deliver", "event-digest", "media-process", "track-process", "render-prepare", "render-run", "render-recover", "uploads-expire", "render-pieces-sweep"];

// Queues whose jobs always carry a singletonKey use pg-boss's "short" policy: at most one
// job per key waits at a time, so a double click or a burst of uploads queues one job.
const KEYED: ReadonlySet<JobName> = new Set(["rsvp-invite", "rsvp-reminder", "event-deliver", "event-digest", "media-process", "track-process", "render-prepare", "render-run"]);

// Retried with growing delays (pg-boss doubles the delay each time with retryBackoff).
const retryPolicy = () => ({
  retryLimit: Number(process.env.JOB_RETRY_LIMIT ?? 5),
  retryDelay: Number(process.env.JOB_RETRY_DELAY_SECONDS ?? 30),
  retryBackoff: true,
});

interface Queue {
  boss: PgBoss;
  working: boolean;
}

const state = () => singleton<{ queue: Queue | null }>("jobQueue", () => ({ queue: null }));

/**
 * Starts the PostgreSQL job queue (pg-boss, in its own schema, JOB_QUEUE_SCHEMA). With
 * handlers, this process also works jobs; without, it only sends them.
 */
export async function startJobQueue(databaseUrl: string, handlers?: JobHandlers) {
  if (state().queue) return state().queue!.boss;
  const boss = new PgBoss({ connectionString: databaseUrl, schema: env().JOB_QUEUE_SCHEMA, max: 4, schedule: !!handlers, supervise: !!handlers });
  boss.on("error", (error) => console.error("job queue:", error));
  await boss.start();
  for (const name of QUEUES) await boss.createQueue(name, { name, policy: KEYED.has(name) ? "short" : "standard" });
  state().queue = { boss, working: !!handlers };
  if (handlers) {
    const pollingIntervalSeconds = Number(process.env.JOB_POLL_SECONDS ?? 2);
    for (const name of QUEUES) {
      await boss.work(name, { pollingIntervalSeconds, batchSize: 1, includeMetadata: true }, async ([job]) => {
        if (!job) return;
        const finalAttempt = job.retryCount >= job.retryLimit;
        await (handlers[name] as JobHandler<JobName>)({ id: job.id, data: job.data as JobData[JobName], finalAttempt });
      });
    }
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
  return boss().send(name, data, { ...retryPolicy(), ...options });
}

/** For tests and tools: a job's state. */
export async function jobState(name: JobName, id: string) {
  return (await boss().getJobById(name, id, { includeArchive: true }))?.state ?? null;
}
