import { useLocation, useMatches } from "@remix-run/react";
import type * as SentryModule from "@sentry/remix";
import { useEffect } from "react";
import {
  SENTRY_DENY_URLS,
  SENTRY_IGNORE_ERRORS,
  SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE,
  SENTRY_REPLAYS_SESSION_SAMPLE_RATE,
  SENTRY_TRACES_SAMPLE_RATE,
} from "~/domain/error-reporting";

// Error reporting in the browser (spec §9's rates) is a large library that most visits never need:
// it loads only where it is set up (SENTRY_DSN), once the page has loaded, so it never delays what a
// contributor sees first. An error shown by an error boundary before then waits for it to load; one
// thrown outside React in the first moments is not reported.

declare global {
  interface Window {
    ENV?: { SENTRY_DSN?: string; NODE_ENV?: string };
  }
}

let sentry: Promise<typeof SentryModule> | null = null;
const loadSentry = () => (sentry ??= import("@sentry/remix"));

/** Starts error reporting after the page's load event, if this deployment has it. */
export function startErrorReporting() {
  const dsn = window.ENV?.SENTRY_DSN;
  if (!dsn) return;
  const start = () =>
    void loadSentry().then((Sentry) =>
      Sentry.init({
        dsn,
        environment: window.ENV?.NODE_ENV,
        tracesSampleRate: SENTRY_TRACES_SAMPLE_RATE,
        replaysOnErrorSampleRate: SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE,
        replaysSessionSampleRate: SENTRY_REPLAYS_SESSION_SAMPLE_RATE,
        ignoreErrors: SENTRY_IGNORE_ERRORS,
        denyUrls: SENTRY_DENY_URLS,
        integrations: [Sentry.browserTracingIntegration({ useEffect, useLocation, useMatches }), Sentry.replayIntegration()],
      }),
    );
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}

/** Reports what an error boundary caught, from the browser (the server reports its own). */
export function useReportBoundaryError(error: unknown) {
  useEffect(() => {
    if (!window.ENV?.SENTRY_DSN) return;
    void loadSentry().then((Sentry) => Sentry.captureRemixErrorBoundaryError(error));
  }, [error]);
}
