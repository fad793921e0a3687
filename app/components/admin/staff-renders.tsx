import { Form } from "@remix-run/react";
import { useEffect, useState } from "react";
import { FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { connectRealtime } from "~/realtime/client";
import type { RenderJobUpdate } from "~/realtime/events";

const eta = (job: RenderJobUpdate) =>
  job.status !== "running"
    ? ""
    : job.etaSeconds === null
      ? " · working out how long…"
      : ` · about ${Math.max(1, Math.ceil(job.etaSeconds / 60))} min left`;

/** The form's field that says a submit of the admin page stops a render. */
export const STOP_RENDER_INTENT = "stop-render";
/** … or that it tries a failed or cancelled render again. */
export const RETRY_RENDER_INTENT = "retry-render";

const stoppable = (job: RenderJobUpdate) => job.status === "queued" || job.status === "running";
const retryable = (job: RenderJobUpdate) => job.status === "failed" || job.status === "cancelled";

/** How long the render took (or has taken so far), as "4 min 05 s". */
function renderTime(job: RenderJobUpdate) {
  if (!job.startedAt || !job.finishedAt) return null;
  const seconds = Math.max(0, Math.round((Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}

/**
 * Recent renders of every Chorus, kept up to date live from the /staff namespace, with their
 * state, attempts, how long they took and their error. Admins get a Stop button on each render
 * still queued or running and a Try again button on each failed or cancelled one (plain forms:
 * they work without JavaScript).
 */
export function StaffRenders({
  initial,
  canStop,
  reply,
}: {
  initial: RenderJobUpdate[];
  canStop: boolean;
  reply?: { formError?: string; message?: string };
}) {
  const [jobs, setJobs] = useState(initial);
  useEffect(() => setJobs(initial), [initial]);
  useEffect(() => {
    const socket = connectRealtime("/staff");
    socket.on("render:progress", (update) =>
      setJobs((list) =>
        list.some((j) => j.id === update.id) ? list.map((j) => (j.id === update.id ? update : j)) : [update, ...list].slice(0, 20),
      ),
    );
    return () => {
      socket.close();
    };
  }, []);
  return (
    <section className="card" aria-labelledby="renders-heading">
      <h2 id="renders-heading">Renders</h2>
      <FormMessages formError={reply?.formError} message={reply?.message} />
      {jobs.length === 0 ? (
        <p className="muted">No render yet.</p>
      ) : (
        <ul className="render-jobs">
          {jobs.map((job) => (
            <li key={job.id} className="render-job">
              <span>
                <a href={`/e/${job.eventUuid}`}>{job.eventUuid.slice(0, 8)}</a> · {job.resolution} · <strong>{job.status}</strong>
                {job.status === "running" ? ` · ${job.percent}%` : null}
                {eta(job)}
                {job.attempts > 0 ? ` · ${job.attempts} ${job.attempts === 1 ? "attempt" : "attempts"}` : null}
                {renderTime(job) ? ` · took ${renderTime(job)}` : null}
                {job.error ? ` · ${job.error}` : null}
              </span>
              <code className="muted">{job.id}</code>
              {canStop && stoppable(job) ? (
                <Form method="post" replace>
                  <input type="hidden" name="intent" value={STOP_RENDER_INTENT} />
                  <SubmitButton name="jobId" value={job.id} pending="Stopping…">
                    Stop
                  </SubmitButton>
                </Form>
              ) : null}
              {canStop && retryable(job) ? (
                <Form method="post" replace>
                  <input type="hidden" name="intent" value={RETRY_RENDER_INTENT} />
                  <SubmitButton name="jobId" value={job.id} pending="Queuing…">
                    Try again
                  </SubmitButton>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
