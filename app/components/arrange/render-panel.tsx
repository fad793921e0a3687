import { useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { IntentButton, IntentForm, useIntentReply } from "~/components/event/event-intent-form";
import { connectRealtime } from "~/realtime/client";
import type { RenderJobUpdate } from "~/realtime/events";
import type { ArrangePage } from "~/services/arrange/page-view";
import { preparedLine, remainingLine, roughDuration } from "./render-ahead";

type Data = ArrangePage["render"];
type Job = Data["jobs"][number];

const minutes = (seconds: number) => {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
};

const eta = (seconds: number | null) =>
  seconds === null ? "working out how long…" : seconds <= 0 ? "almost done" : `${roughDuration(seconds)} left`;

const STATUS_LABEL: Record<Job["status"], string> = {
  queued: "Waiting to start",
  running: "Rendering",
  succeeded: "Ready",
  failed: "Failed",
  cancelled: "Stopped",
};

/** The active render as the server last told us: from the page, then live updates. */
function useLiveJob(initial: Job | undefined, eventUuid: string) {
  const [job, setJob] = useState<RenderJobUpdate | undefined>(initial);
  const { revalidate } = useRevalidator();
  useEffect(() => setJob(initial), [initial]);
  const id = initial?.id;
  useEffect(() => {
    if (!id) return;
    const finished = (update: RenderJobUpdate) => update.status !== "queued" && update.status !== "running";
    const apply = (update: RenderJobUpdate) => {
      if (update.id !== id) return;
      setJob(update);
      if (finished(update)) revalidate();
    };
    const socket = connectRealtime("/users");
    socket.on("render:progress", (update) => update.eventUuid === eventUuid && apply(update));
    // A slower check beside the live one, for connections that drop websockets.
    const timer = window.setInterval(async () => {
      const response = await fetch(`/api/v2/render-jobs/${id}`, { headers: { Accept: "application/json" } }).catch(() => null);
      const body = response?.ok ? ((await response.json()) as { data?: RenderJobUpdate }) : null;
      if (body?.data) apply(body.data);
    }, 4000);
    return () => {
      window.clearInterval(timer);
      socket.close();
    };
  }, [id, eventUuid, revalidate]);
  return job;
}

function Progress({ job }: { job: RenderJobUpdate }) {
  return (
    <div className="render-progress" role="status" aria-live="polite">
      <p>
        <strong>{STATUS_LABEL[job.status]}</strong> · {job.resolution}
        {job.status === "running" ? ` · ${job.percent}% · ${eta(job.etaSeconds)}` : null}
      </p>
      {job.status === "running" ? (
        <p className="muted">
          {job.piecesReused} pieces reused, {job.piecesRendered} rendered so far
        </p>
      ) : null}
      <progress max={100} value={job.status === "queued" ? undefined : job.percent} aria-label="Render progress">
        {job.percent}%
      </progress>
      {job.publishWhenDone ? <p className="muted">It will be published as soon as it's done.</p> : null}
      <noscript>
        <p>
          <a href="#render">Refresh</a> to see the latest progress.
        </p>
      </noscript>
    </div>
  );
}

const listed = (parts: string[]) => (parts.length < 2 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`);

/** 1080p HD is the premium finish's: shown to everyone, chosen only with it. */
function QualityChoice({ data }: { data: Data }) {
  return (
    <fieldset className="field">
      <legend>Quality</legend>
      {data.premium ? (
        <label className="choice">
          <input type="radio" name="resolution" value="1080p" defaultChecked={data.resolution === "1080p"} /> Full HD 1080p (best on TVs)
        </label>
      ) : (
        <p className="choice choice--premium">
          <label>
            <input type="radio" value="1080p" disabled aria-describedby="render-premium-hd" /> Full HD 1080p (best on TVs){" "}
            <span className="badge badge--premium">Premium</span>
          </label>{" "}
          <a id="render-premium-hd" href={data.cartPath}>
            Premium finish — add it
          </a>
        </p>
      )}
      <label className="choice">
        <input type="radio" name="resolution" value="720p" defaultChecked={data.resolution === "720p"} /> HD 720p (smaller file, faster)
      </label>
    </fieldset>
  );
}

/** Before Render is pressed: a premium theme or track chosen for a Chorus without premium. */
function PremiumLooksNote({ looks, cartPath }: { looks: Data["premiumLooks"]; cartPath: string }) {
  const what = listed(looks.map((l) => l.what));
  const one = looks.length === 1;
  return (
    <p className="premium-note" id="render-premium-looks">
      {what.charAt(0).toUpperCase() + what.slice(1)} {one ? "is" : "are"} part of the Premium finish, so the video can&apos;t be rendered
      with {one ? "it" : "them"} yet. <a href={cartPath}>Premium finish — add it</a>, or choose {listed(looks.map((l) => l.instead))} above.
    </p>
  );
}

function StartForm({ data, busy }: { data: Data; busy: boolean }) {
  const empty = data.plan.scenes === 0;
  // A render refused for want of premium (the reason is at the top of the page): the way to it.
  const refused = useIntentReply("render-start")?.errors?.payment;
  return (
    <IntentForm intent="render-start" section="render" className="render-start stack">
      {refused ? (
        <p className="premium-note" role="alert">
          This render needs the Premium finish. <a href={refused}>Premium finish — add it</a>
        </p>
      ) : null}
      <QualityChoice data={data} />
      <label className="choice">
        <input type="checkbox" name="publish" defaultChecked /> Publish it to the recipient's link as soon as it's done
      </label>
      {empty ? <p className="field-error">Nothing to render yet: no photo or clip is ready.</p> : null}
      {data.premiumLooks.length ? <PremiumLooksNote looks={data.premiumLooks} cartPath={data.cartPath} /> : null}
      {busy ? null : (
        <IntentButton intent="render-start" pending="Starting…">
          Render the video
        </IntentButton>
      )}
    </IntentForm>
  );
}

function JobRow({ job }: { job: Job }) {
  return (
    <li className="render-job">
      <div>
        <strong>{STATUS_LABEL[job.status]}</strong> · {job.resolution}
        {job.durationSeconds ? ` · ${minutes(job.durationSeconds)}` : null}
        {job.published ? " · published" : null}
        {job.status === "succeeded" ? (
          <span className="muted">
            {" "}
            · {job.piecesReused} pieces reused, {job.piecesRendered} rendered
          </span>
        ) : null}
        {job.error ? <p className="field-error">{job.error}</p> : null}
      </div>
      {job.videoUrl ? (
        <video
          controls
          preload="none"
          poster={job.posterUrl ?? undefined}
          src={job.videoUrl}
          width={320}
          height={180}
          className="render-job__video"
        />
      ) : null}
      <div className="render-job__actions">
        {job.status === "succeeded" && !job.published ? (
          <IntentForm intent="render-publish" section="render">
            <input type="hidden" name="jobId" value={job.id} />
            <IntentButton intent="render-publish" row={{ name: "jobId", value: job.id }} pending="Publishing…">
              Publish this one
            </IntentButton>
          </IntentForm>
        ) : null}
        {job.status === "queued" || job.status === "running" ? (
          <IntentForm intent="render-cancel" section="render">
            <input type="hidden" name="jobId" value={job.id} />
            <IntentButton intent="render-cancel" row={{ name: "jobId", value: job.id }} pending="Stopping…" secondary>
              Stop
            </IntentButton>
          </IntentForm>
        ) : null}
      </div>
    </li>
  );
}

function Versions({ versions, downloadable, cartPath }: Pick<Data, "versions" | "downloadable" | "cartPath">) {
  if (!versions.length)
    return <p className="muted">Nothing published yet. The recipient's link shows a "being prepared" page until you publish.</p>;
  return (
    <ol className="render-versions">
      {versions.map((v) => (
        <li key={v.id} className={v.current ? "render-version render-version--current" : "render-version"}>
          <span>
            Version {v.version}
            {v.resolution ? ` · ${v.resolution}` : ""}
            {v.durationSeconds ? ` · ${minutes(v.durationSeconds)}` : ""}
            {v.current ? <strong> · on the recipient's link</strong> : null}
          </span>
          {downloadable ? <a href={v.downloadUrl}>Download</a> : <a href={cartPath}>Pay to download</a>}
          {v.current ? null : (
            <IntentForm intent="version-restore" section="render">
              <input type="hidden" name="versionId" value={v.id} />
              <IntentButton intent="version-restore" row={{ name: "versionId", value: v.id }} pending="Switching…" secondary>
                Make this the current one
              </IntentButton>
            </IntentForm>
          )}
          {v.current ? null : (
            <IntentForm intent="version-delete" section="render">
              <input type="hidden" name="versionId" value={v.id} />
              <IntentButton intent="version-delete" row={{ name: "versionId", value: v.id }} pending="Deleting…" secondary>
                Delete this version
              </IntentButton>
            </IntentForm>
          )}
        </li>
      ))}
    </ol>
  );
}

/** Reloads the panel's figures when scenes of the next render are rendered ahead (with JavaScript; without, a reload does). */
function usePreparedUpdates(eventUuid: string) {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    let timer: number | undefined;
    const socket = connectRealtime("/users");
    socket.on("render:prepared", (update) => {
      if (update.eventUuid !== eventUuid) return;
      window.clearTimeout(timer);
      timer = window.setTimeout(() => revalidate(), 300);
    });
    return () => {
      window.clearTimeout(timer);
      socket.close();
    };
  }, [eventUuid, revalidate]);
}

/** Render and publish: start a render, follow it live, publish, go back to an earlier version. */
export function RenderPanel({ data, eventUuid }: { data: Data; eventUuid: string }) {
  const active = data.jobs.find((j) => j.status === "queued" || j.status === "running");
  const live = useLiveJob(active, eventUuid);
  usePreparedUpdates(eventUuid);
  const busy = !!live && (live.status === "queued" || live.status === "running");
  const { plan } = data;
  return (
    <section className="card arrange-section" id="render" aria-labelledby="render-heading">
      <h2 id="render-heading">Render and publish</h2>
      <p>
        {plan.scenes === 0
          ? "No photo or clip is ready yet."
          : `${plan.clips} ${plan.clips === 1 ? "clip" : "clips"} and ${plan.photos} ${plan.photos === 1 ? "photo" : "photos"}, about ${minutes(plan.durationSeconds)} long.`}
      </p>
      {plan.scenes > 0 ? (
        <p className="render-ahead" data-testid="render-ahead">
          {preparedLine(data.ahead)} {remainingLine(data.ahead)}
        </p>
      ) : null}
      {plan.waiting ? <p className="muted">{`${plan.waiting} still being prepared will be left out if you render now.`}</p> : null}
      {plan.failed ? <p className="muted">{`${plan.failed} that could not be read are left out.`}</p> : null}
      {live && busy ? <Progress job={live} /> : null}
      <StartForm data={data} busy={busy} />
      {data.jobs.length ? (
        <>
          <h3>Recent renders</h3>
          <ul className="render-jobs">
            {data.jobs.map((job) => (
              <JobRow key={job.id} job={live && live.id === job.id ? { ...job, ...live } : job} />
            ))}
          </ul>
        </>
      ) : null}
      <h3>Published versions</h3>
      <Versions versions={data.versions} downloadable={data.downloadable} cartPath={data.cartPath} />
      {data.packageUrl ? (
        <p>
          <a href={data.packageUrl} download>
            Staff: download everything (originals, video and messages) as a zip
          </a>
        </p>
      ) : null}
    </section>
  );
}
