import { useEffect, useState } from "react";
import { connectRealtime } from "~/realtime/client";
import type { RenderJobUpdate } from "~/realtime/events";

const eta = (job: RenderJobUpdate) =>
  job.status !== "running" ? "" : job.etaSeconds === null ? " · working out how long…" : ` · about ${Math.max(1, Math.ceil(job.etaSeconds / 60))} min left`;

/** Recent renders of every Chorus, kept up to date live from the /staff namespace. */
export function StaffRenders({ initial }: { initial: RenderJobUpdate[] }) {
  const [jobs, setJobs] = useState(initial);
  useEffect(() => setJobs(initial), [initial]);
  useEffect(() => {
    const socket = connectRealtime("/staff");
    socket.on("render:progress", (update) =>
      setJobs((list) => (list.some((j) => j.id === update.id) ? list.map((j) => (j.id === update.id ? update : j)) : [update, ...list].slice(0, 20))),
    );
    return () => {
      socket.close();
    };
  }, []);
  return (
    <section className="card" aria-labelledby="renders-heading">
      <h2 id="renders-heading">Renders</h2>
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
            </li>
          ))}
        </ul>
      )}
      <p className="field-hint">Stop one with DELETE /api/admin/renderjobs/{"{id}"}.</p>
    </section>
  );
}
