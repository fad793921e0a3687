import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { DASHBOARD_TITLE } from "~/domain/product";
import { UnexpectedErrorCard } from "./unexpected-error";

/**
 * A page's error boundary for a page its loader refused (4xx): what the loader said was not there
 * ("There is no Chorus with this id."), inside the shell, with the way to the organiser's own
 * Choruses. Anything else is an unexpected error.
 */
export function RefusedPageCard({ hint }: { hint: string }) {
  const error = useRouteError();
  if (!isRouteErrorResponse(error) || error.status >= 500) return <UnexpectedErrorCard error={error} />;
  const said = typeof error.data === "string" && error.data.trim() ? error.data.trim() : "We couldn't find that page.";
  return (
    <div className="card empty-state">
      <h1>{said}</h1>
      <p>{hint}</p>
      <Link className="button" to="/dashboard">
        {DASHBOARD_TITLE}
      </Link>
    </div>
  );
}
