import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { useReportBoundaryError } from "~/lib/browser/error-reporting";

/** What a page says when it cannot be shown: a heading and a sentence. */
export interface PageErrorWords {
  title: ReactNode;
  text: ReactNode;
}

/**
 * A page's own words per status. A function is given what the loader said when it refused (the
 * thrown answer's text, e.g. "There is no Chorus with this id."), or null.
 */
export type StatusWords = Partial<Record<number, PageErrorWords | ((said: string | null) => PageErrorWords)>>;

export interface WayBack {
  to: string;
  label: string;
}

const HOME: WayBack = { to: "/", label: "Go to the home page" };

const UNEXPECTED: PageErrorWords = {
  title: "Something went wrong",
  text: "We've been told about it. Please try again in a moment.",
};

// What any page says for a status it has no words of its own for. The root's error page (a URL no
// route matches, or a failure of the shell itself) says the same.
const GENERAL_WORDS: Record<number, PageErrorWords> = {
  400: { title: "We couldn't read that request", text: "The link or the form may be incomplete. Check it and try again." },
  401: { title: "Please log in", text: "Log in with your account and try again." },
  403: { title: "You can't see this page", text: "Log in with the account that has access, or ask its owner for a link." },
  404: { title: "We couldn't find that page", text: "The link may be old or mistyped." },
  410: { title: "This page is no longer here", text: "What was here has been removed." },
  429: { title: "Too many tries", text: "Please wait a moment, then try again." },
};

const OTHER_REFUSAL: PageErrorWords = { title: "We couldn't open this page", text: "Check the link and try again." };

/** The words any page shows for a status: those above, or the calm unexpected-error words for a 5xx. */
export function generalWordsFor(status: number): PageErrorWords {
  if (status >= 500) return UNEXPECTED;
  return GENERAL_WORDS[status] ?? OTHER_REFUSAL;
}

/**
 * Words whose heading is what the loader said when it refused ("There is no Chorus with this id."),
 * with the page's hint below it.
 */
export const saidWithHint =
  (hint: ReactNode, otherwise = "We couldn't find that page.") =>
  (said: string | null): PageErrorWords => ({ title: said ?? otherwise, text: hint });

/** The text a loader's refusal carried (asPageError in lib/http.server.ts throws its message as the body). */
function saidBy(data: unknown) {
  return typeof data === "string" && data.trim() ? data.trim() : null;
}

/**
 * The error boundary every page exports (docs/decisions/055): what went wrong, in the page's own
 * words where it has them, inside the app shell (the root still renders the header, menus and
 * footer around it), with a way back. Rendered by the server too, so it works without JavaScript.
 * A 5xx or an error nobody planned for says only that something went wrong (never a stack or a
 * message meant for us) and is reported.
 */
export function PageError({ words, back = HOME }: { words?: StatusWords; back?: WayBack }) {
  const error = useRouteError();
  if (!isRouteErrorResponse(error) || error.status >= 500) return <UnexpectedError error={error} back={back} />;
  const own = words?.[error.status];
  const shown = typeof own === "function" ? own(saidBy(error.data)) : (own ?? generalWordsFor(error.status));
  return <PageErrorCard words={shown} back={back} />;
}

function UnexpectedError({ error, back }: { error: unknown; back: WayBack }) {
  useReportBoundaryError(error);
  return <PageErrorCard words={UNEXPECTED} back={back} />;
}

function PageErrorCard({ words, back }: { words: PageErrorWords; back: WayBack }) {
  return (
    <div className="card empty-state">
      <h1>{words.title}</h1>
      <p>{words.text}</p>
      <Link className="button" to={back.to}>
        {back.label}
      </Link>
    </div>
  );
}
