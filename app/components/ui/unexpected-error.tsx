import { useReportBoundaryError } from "~/lib/browser/error-reporting";

/** What a page's error boundary shows for an error nobody planned for; the error is reported. */
export function UnexpectedErrorCard({ error }: { error: unknown }) {
  useReportBoundaryError(error);
  return (
    <div className="card empty-state">
      <h1>Something went wrong</h1>
      <p>We've been told about it. Please try again in a moment.</p>
    </div>
  );
}
