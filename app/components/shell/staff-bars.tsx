import type { DeveloperBar, StaffBar } from "./staff-bar-types";

const RENDER_STATES: Record<string, string> = {
  queued: "waiting",
  running: "rendering",
  succeeded: "done",
  failed: "failed",
  cancelled: "stopped",
};

/**
 * The admin tools bar (spec §6): the console, and on a Chorus's pages that Chorus in it. While an
 * admin acts as someone else it says so first, with the way back.
 */
export function StaffToolsBar({ bar }: { bar: StaffBar }) {
  const { chorus } = bar;
  return (
    <nav className={`staff-bar${bar.actingAs ? " staff-bar--acting" : ""}`} aria-label="Admin tools">
      {bar.actingAs ? (
        <span className="staff-bar__acting" role="status">
          You are acting as <strong>{bar.actingAs}</strong>.
          <form method="post" action="/admin/stop-impersonating">
            <button type="submit">Stop impersonating</button>
          </form>
        </span>
      ) : null}
      <a href="/admin">Admin</a>
      {chorus ? (
        <>
          <a href={chorus.consoleHref}>This Chorus in admin</a>
          <span>
            {chorus.renders === 1 ? "1 render" : `${chorus.renders} renders`}
            {chorus.latestRender ? `, latest ${RENDER_STATES[chorus.latestRender] ?? chorus.latestRender}` : ""}
          </span>
          {chorus.organiserHref ? <a href={chorus.organiserHref}>Organiser</a> : null}
          <span className="staff-bar__state">
            {chorus.paid ? "Paid" : "Not paid"}
            {chorus.deleted ? " · deleted" : ""}
          </span>
        </>
      ) : (
        <a href="/admin/choruses">Choruses</a>
      )}
      {bar.admin ? <a href="/admin/queues">Queues</a> : null}
    </nav>
  );
}

/** The developer tools bar (spec §6), under `npm run dev` only. */
export function DeveloperToolsBar({ bar }: { bar: DeveloperBar }) {
  return (
    <aside className="developer-bar" aria-label="Developer tools">
      <span>
        Build: {bar.builtAt ? <time dateTime={bar.builtAt}>{new Date(bar.builtAt).toLocaleTimeString("en-GB")}</time> : "not built"}
      </span>
      <span>Database: {bar.database}</span>
      <a href="/dev/outbox">Outbox: {bar.outboxMessages}</a>
      <span>
        Jobs: {bar.queue.waiting} waiting, {bar.queue.active} running
        {bar.queue.failedLastDay ? `, ${bar.queue.failedLastDay} failed today` : ""}
      </span>
    </aside>
  );
}
