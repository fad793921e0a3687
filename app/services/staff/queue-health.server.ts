import { JOB_NAMES, jobOptions } from "~/jobs/catalogue";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { countJobsByQueue } from "~/models/job-queue.server";

// The job queues at a glance, for administrators at /admin/queues: every kind of job in the
// catalogue, how many wait, run and failed in the last day, and how long the oldest has waited.

/** A queue whose oldest waiting job is older than this is shown as held up. */
const STUCK_AFTER_SECONDS = 10 * 60;

export async function queueHealth(now = new Date()) {
  const counts = await countJobsByQueue(db(), env().JOB_QUEUE_SCHEMA, JOB_NAMES);
  return {
    checkedAt: now.toISOString(),
    queues: counts.map((queue) => {
      const oldestWaitingSeconds = queue.oldestWaitingSince
        ? Math.max(0, Math.round((now.getTime() - queue.oldestWaitingSince.getTime()) / 1000))
        : null;
      return {
        name: queue.name,
        schedule: jobOptions(queue.name as (typeof JOB_NAMES)[number]).schedule ?? null,
        waiting: queue.waiting,
        active: queue.active,
        failedLastDay: queue.failedLastDay,
        oldestWaitingSeconds,
        heldUp: oldestWaitingSeconds !== null && oldestWaitingSeconds > STUCK_AFTER_SECONDS,
      };
    }),
  };
}
