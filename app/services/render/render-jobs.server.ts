import { stat } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Event, RenderJob, User } from "drizzle/schema";
import { enqueue } from "~/jobs/queue.server";
import { openWorkDir } from "~/jobs/work-dir.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { badRequest, ApiError } from "~/lib/http.server";
import { observeRender } from "~/lib/metrics.server";
import { probeMedia } from "~/media/probe.server";
import {
  claimRenderJob,
  findActiveRenderJob,
  findRenderJob,
  insertRenderJob,
  listStalledRenderJobs,
  markRenderSucceeded,
  requestRenderStop,
  updateRenderJob,
} from "~/models/render-job.server";
import type { RenderPlan, Resolution } from "~/render/plan";
import { runRender, type RenderProgress } from "~/render/run.server";
import { storage } from "~/services/media/storage.server";
import { nextRender, preparedPieces } from "~/services/render/next-render.server";
import { storedPieces } from "~/services/render/render-pieces.server";
import { premiumRequired } from "~/services/render/render-premium.server";
import { publishAsSucceeded } from "~/services/render/render-publish.server";
import { publishRenderUpdate } from "~/services/render/render-realtime.server";

// Render jobs (spec §4 "render jobs", §7.2): a job keeps the plan it renders, runs in a worker
// (never in a web request), writes a heartbeat while it works, can be cancelled, and after a
// crash is taken up again — reusing every piece already rendered — without publishing twice.

// The queue's own time limit for one attempt: long renders must not be taken for dead ones
// (a dead worker is found sooner by its heartbeat, see recoverStalledRenders).
const RENDER_JOB_EXPIRY_SECONDS = 6 * 60 * 60;

export const RENDER_FAILED = "The render did not finish. Please try again; if it keeps failing, our team has been told.";

/**
 * Queues a render of the event as it is arranged now. One render per event at a time. Without the
 * premium finish it is 720p with no premium theme or track (a 402 says what needs premium).
 */
export async function startRender(event: Event, options: { requestedBy: User | null; publishWhenDone: boolean; resolution?: Resolution }) {
  // The plan the render panel counted and the render-ahead job prepared (unless another size is asked for).
  const { plan, needs } = await nextRender(event, options.resolution);
  if (needs.length) throw premiumRequired(event, needs);
  const active = await findActiveRenderJob(db(), event.id);
  if (active) return { job: active, created: false };
  if (plan.segments.length <= 2) throw badRequest("Nothing to render yet: no contribution is ready. Add a photo or a clip first.");
  const job = await insertRenderJob(db(), {
    eventId: event.id,
    requestedById: options.requestedBy?.id ?? null,
    publishWhenDone: options.publishWhenDone,
    resolution: plan.profile.resolution,
  });
  // Until the render has measured itself, its time left is what this machine's latest pieces say.
  const { estimateSeconds, reusable } = await preparedPieces(plan);
  const saved = await updateRenderJob(db(), job.id, {
    plan,
    planHash: plan.hash,
    framesTotal: plan.totalFrames,
    etaSeconds: estimateSeconds,
    piecesReused: reusable,
  });
  await enqueue("render-run", { renderJobId: job.id }, { singletonKey: job.id, expireInSeconds: RENDER_JOB_EXPIRY_SECONDS });
  await publishRenderUpdate(saved!);
  return { job: saved!, created: true };
}

/** How often a running render writes its heartbeat, and so how soon it sees a stop. */
function heartbeatMs() {
  const { JOB_HEARTBEAT_SECONDS, RENDER_STALL_SECONDS } = env();
  // At least three times within RENDER_STALL_SECONDS, so a live render is never taken for dead.
  return Math.min(JOB_HEARTBEAT_SECONDS, RENDER_STALL_SECONDS / 3) * 1000;
}

/**
 * Asks a render to stop. A queued one stops at once. A running one stops at its next heartbeat,
 * and a stop asked for before it ended wins over its end: it publishes nothing and keeps no video
 * (requestRenderStop and markRenderSucceeded decide on the row). The answer waits up to two
 * heartbeats for the render to stop, so it says how the render ended; one still stopping after that
 * says `stopping`.
 */
export async function cancelRender(job: RenderJob) {
  const asked = await requestRenderStop(db(), job.id);
  if (!asked) throw new ApiError(409, "CONFLICT", "This render has already finished.");
  await publishRenderUpdate(asked);
  let latest = asked;
  const deadline = Date.now() + 2 * heartbeatMs() + 1000;
  while (latest.status === "running" && Date.now() < deadline) {
    await sleep(STOP_POLL_MS);
    latest = (await findRenderJob(db(), job.id)) ?? latest;
  }
  return latest;
}

const STOP_POLL_MS = 250;

/** The render-run job. Idempotent: a finished or cancelled job is left as it is. */
export async function runRenderJob(renderJobId: string, { finalAttempt = false }: { finalAttempt?: boolean } = {}) {
  const job = await claimRenderJob(db(), renderJobId);
  if (!job) return;
  const plan = job.plan as RenderPlan;
  const controller = new AbortController();
  let cancelled = false;
  let latest: RenderProgress | null = null;
  let lastPush = 0;
  // Before the render has done enough to time itself, the estimate made when it was started counts down.
  const startedAt = Date.now();
  const planned = job.etaSeconds;
  const etaOf = (progress: RenderProgress) =>
    progress.etaSeconds ?? (planned === null ? null : Math.max(0, Math.round(planned - (Date.now() - startedAt) / 1000)));
  // Every JOB_HEARTBEAT_SECONDS, as every other job's: it is also how soon a running render sees a stop.
  const heartbeat = setInterval(async () => {
    const row = await updateRenderJob(db(), job.id, {
      heartbeatAt: new Date(),
      // Written with the heartbeat, so a reload (or a page without JavaScript) shows where it is.
      ...(latest
        ? {
            framesDone: latest.framesDone,
            etaSeconds: etaOf(latest),
            piecesRendered: latest.piecesRendered,
            piecesReused: latest.piecesReused,
          }
        : {}),
    }).catch(() => null);
    if (row?.cancelRequestedAt && !cancelled) {
      cancelled = true;
      controller.abort();
    }
  }, heartbeatMs());
  // Named by render: its next attempt empties what a dead one left (app/jobs/work-dir.server.ts).
  const workDir = await openWorkDir(`render-${job.id}`);
  const work = workDir.path;
  const pieces = storedPieces();
  await publishRenderUpdate(job);
  const started = performance.now();
  const took = () => (performance.now() - started) / 1000;
  const base = `events/${job.eventId}/renders/${job.id}`;
  const stopNow = () => {
    cancelled = true;
    return Object.assign(new Error("The render was stopped."), { name: "AbortError" });
  };
  try {
    const output = path.join(work, "video.mp4");
    const result = await runRender(plan, {
      store: pieces,
      sourcePath: async (key) => {
        const copy = await storage().localCopy(key, { into: work });
        return copy.path;
      },
      workDir: path.join(work, "pieces"),
      output,
      poster: path.join(work, "poster.jpg"),
      signal: controller.signal,
      onProgress: (progress) => {
        latest = progress;
        // Live progress a few times a second at most; the row is written with the heartbeat.
        if (Date.now() - lastPush < 400 && progress.fraction < 1) return;
        lastPush = Date.now();
        void publishRenderUpdate({
          ...job,
          framesDone: progress.framesDone,
          etaSeconds: etaOf(progress),
          piecesRendered: progress.piecesRendered,
          piecesReused: progress.piecesReused,
        });
      },
    });
    // A stop asked for since the last heartbeat: nothing is stored.
    if ((await findRenderJob(db(), job.id))?.cancelRequestedAt) throw stopNow();
    const probe = await probeMedia(output);
    const size = (await stat(output)).size;
    await storage().putFile(`${base}/video.mp4`, output, "video/mp4");
    if (result.poster) await storage().putFile(`${base}/poster.jpg`, result.poster, "image/jpeg");
    const rendered = (await updateRenderJob(db(), job.id, {
      outputKey: `${base}/video.mp4`,
      posterKey: result.poster ? `${base}/poster.jpg` : null,
      durationSeconds: probe.duration,
      sizeBytes: size,
      framesDone: plan.totalFrames,
      etaSeconds: 0,
      piecesRendered: result.piecesRendered,
      piecesReused: result.piecesReused,
      heartbeatAt: new Date(),
    }))!;
    const done = rendered.publishWhenDone ? await publishAsSucceeded(rendered) : await markRenderSucceeded(db(), job.id);
    if (!done) throw stopNow();
    observeRender("succeeded", took());
    console.info(
      `render ${job.id}: ${result.piecesRendered} pieces rendered, ${result.piecesReused} reused; finished at (s) ${JSON.stringify(result.finishedAt)}`,
    );
    await publishRenderUpdate(done);
  } catch (error) {
    observeRender(cancelled ? "cancelled" : "failed", took());
    if (cancelled) {
      // A stopped render keeps no video: what it stored before the stop won is removed.
      await Promise.all(
        ["video.mp4", "poster.jpg"].map((file) =>
          storage()
            .delete(`${base}/${file}`)
            .catch(() => {}),
        ),
      );
      const stopped = await updateRenderJob(db(), job.id, {
        status: "cancelled",
        outputKey: null,
        posterKey: null,
        finishedAt: new Date(),
      });
      if (stopped) await publishRenderUpdate(stopped);
      return;
    }
    console.error(`render ${job.id} failed:`, error);
    // Retried by the queue; after the last attempt the organiser is told instead of waiting for ever.
    const failed = await updateRenderJob(
      db(),
      job.id,
      finalAttempt ? { status: "failed", error: RENDER_FAILED, finishedAt: new Date() } : { status: "queued", error: RENDER_FAILED },
    );
    if (failed) await publishRenderUpdate(failed);
    throw error;
  } finally {
    clearInterval(heartbeat);
    await pieces.release();
    await workDir.remove();
  }
}

/**
 * Takes up renders whose worker died mid-way (no heartbeat for RENDER_STALL_SECONDS): they are
 * queued again and resume from the pieces already stored. Runs in every worker process.
 */
export async function recoverStalledRenders() {
  const stalled = await listStalledRenderJobs(db(), env().RENDER_STALL_SECONDS);
  for (const job of stalled) {
    const requeued = await updateRenderJob(db(), job.id, { status: "queued", heartbeatAt: new Date() });
    if (requeued)
      await enqueue(
        "render-run",
        { renderJobId: job.id },
        { singletonKey: `${job.id}:${job.attempts}`, expireInSeconds: RENDER_JOB_EXPIRY_SECONDS },
      );
  }
  return stalled.length;
}
