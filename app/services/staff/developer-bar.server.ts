import { stat } from "node:fs/promises";
import path from "node:path";
import type { DeveloperBar } from "~/components/shell/staff-bar-types";
import { JOB_NAMES } from "~/jobs/catalogue";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { countJobsByQueue } from "~/models/job-queue.server";
import { countOutboxMessages } from "~/models/outbox.server";

// Spec §6: "... developer tools bars exist in the layout." Under `npm run dev` every page shows what
// a developer checks first: how fresh the build is, which database this is, what the outbox holds
// and how many jobs wait.

/** Where PostgreSQL is, as `host:port/database`: never the user name or password. */
export function databaseAddress(url: string | undefined) {
  if (!url) return "not connected";
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`;
  } catch {
    return "unreadable DATABASE_URL";
  }
}

/** The developer bar, in development only (null otherwise). */
export async function developerBar(): Promise<DeveloperBar | null> {
  const settings = env();
  if (settings.NODE_ENV !== "development") return null;
  const [queues, outboxMessages, built] = await Promise.all([
    countJobsByQueue(db(), settings.JOB_QUEUE_SCHEMA, JOB_NAMES),
    countOutboxMessages(db()),
    stat(path.resolve(process.cwd(), "build", "index.js")).catch(() => null),
  ]);
  const total = (field: "waiting" | "active" | "failedLastDay") => queues.reduce((sum, queue) => sum + queue[field], 0);
  return {
    builtAt: built ? built.mtime.toISOString() : null,
    database: databaseAddress(settings.DATABASE_URL),
    outboxMessages,
    queue: { waiting: total("waiting"), active: total("active"), failedLastDay: total("failedLastDay") },
  };
}
