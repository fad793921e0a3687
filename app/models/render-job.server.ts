import { renderJobs, type RenderJob } from "drizzle/schema";
import { and, desc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export type RenderJobChanges = Partial<Omit<RenderJob, "id" | "eventId" | "createdAt">>;

export async function insertRenderJob(db: Db, values: Pick<RenderJob, "eventId" | "requestedById" | "publishWhenDone" | "resolution">) {
  const [row] = await db.insert(renderJobs).values(values).returning();
  return row!;
}

export async function findRenderJob(db: Db, id: string) {
  const [row] = await db.select().from(renderJobs).where(eq(renderJobs.id, id)).limit(1);
  return row ?? null;
}

export async function updateRenderJob(db: Db, id: string, changes: RenderJobChanges) {
  const [row] = await db.update(renderJobs).set(changes).where(eq(renderJobs.id, id)).returning();
  return row ?? null;
}

/**
 * Asks a render to stop: a queued one is cancelled at once, a running one is marked for its worker
 * to stop. Null when it had already ended. Each update is one statement on the row, so a stop and
 * the render's own end (markRenderSucceeded) cannot both win.
 */
export async function requestRenderStop(db: Db, id: string) {
  const [queued] = await db
    .update(renderJobs)
    .set({ status: "cancelled", cancelRequestedAt: sql`now()`, finishedAt: sql`now()` })
    .where(and(eq(renderJobs.id, id), eq(renderJobs.status, "queued")))
    .returning();
  if (queued) return queued;
  const [running] = await db
    .update(renderJobs)
    .set({ cancelRequestedAt: sql`coalesce(${renderJobs.cancelRequestedAt}, now())` })
    .where(and(eq(renderJobs.id, id), eq(renderJobs.status, "running")))
    .returning();
  return running ?? null;
}

/** Ends a render as succeeded, unless a stop was asked for first (then null). */
export async function markRenderSucceeded(db: Db, id: string) {
  const [row] = await db
    .update(renderJobs)
    .set({ status: "succeeded", finishedAt: sql`now()` })
    .where(and(eq(renderJobs.id, id), inArray(renderJobs.status, ["queued", "running"]), isNull(renderJobs.cancelRequestedAt)))
    .returning();
  return row ?? null;
}

/**
 * Takes the job for this attempt: only a queued or running job (a crashed worker's) can be
 * taken, and taking it counts the attempt. A cancelled or finished job is left alone.
 */
export async function claimRenderJob(db: Db, id: string) {
  const [row] = await db
    .update(renderJobs)
    .set({
      status: "running",
      attempts: sql`${renderJobs.attempts} + 1`,
      startedAt: sql`coalesce(${renderJobs.startedAt}, now())`,
      heartbeatAt: sql`now()`,
      error: null,
    })
    .where(and(eq(renderJobs.id, id), inArray(renderJobs.status, ["queued", "running"]), isNull(renderJobs.cancelRequestedAt)))
    .returning();
  return row ?? null;
}

export async function listRenderJobsOfEvent(db: Db, eventId: string, limit = 20) {
  return db.select().from(renderJobs).where(eq(renderJobs.eventId, eventId)).orderBy(desc(renderJobs.createdAt)).limit(limit);
}

/** The event's render that is waiting or running, if any. */
export async function findActiveRenderJob(db: Db, eventId: string) {
  const [row] = await db
    .select()
    .from(renderJobs)
    .where(and(eq(renderJobs.eventId, eventId), inArray(renderJobs.status, ["queued", "running"])))
    .orderBy(desc(renderJobs.createdAt))
    .limit(1);
  return row ?? null;
}

/** Running jobs whose worker has not written a heartbeat for `seconds`: their worker died. */
export async function listStalledRenderJobs(db: Db, seconds: number) {
  return db
    .select()
    .from(renderJobs)
    .where(
      and(
        eq(renderJobs.status, "running"),
        or(isNull(renderJobs.heartbeatAt), lt(renderJobs.heartbeatAt, sql`now() - make_interval(secs => ${seconds})`)),
      ),
    );
}

/** The latest renders of every event, for staff. */
export async function listRecentRenderJobs(db: Db, limit = 20) {
  return db.select().from(renderJobs).orderBy(desc(renderJobs.createdAt)).limit(limit);
}

/** The latest renders of each of these events, newest first. */
export async function listRenderJobsOfEvents(db: Db, eventIds: string[], perEvent = 3) {
  if (!eventIds.length) return [];
  const ranked = db
    .select({
      id: renderJobs.id,
      rank: sql<number>`row_number() over (partition by ${renderJobs.eventId} order by ${renderJobs.createdAt} desc)`.as("rank"),
    })
    .from(renderJobs)
    .where(inArray(renderJobs.eventId, eventIds))
    .as("ranked");
  return db
    .select({ job: renderJobs })
    .from(renderJobs)
    .innerJoin(ranked, eq(ranked.id, renderJobs.id))
    .where(lte(ranked.rank, perEvent))
    .orderBy(desc(renderJobs.createdAt))
    .then((rows) => rows.map((row) => row.job));
}
