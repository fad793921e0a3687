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

const stoppable = (job: RenderJobUpdate) => job.status === "queued" || job.status === "running";

/**
 * Recent renders of every Chorus, kept up to date live from the /staff namespace. Admins get a
 * Stop button on each render still queued or running (a plain form: it works without JavaScript).
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
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
