import { RemixBrowser, useLocation, useMatches } from "@remix-run/react";
import * as Sentry from "@sentry/remix";
import { startTransition, StrictMode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import {
  SENTRY_DENY_URLS,
  SENTRY_IGNORE_ERRORS,
  SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE,
  SENTRY_REPLAYS_SESSION_SAMPLE_RATE,
  SENTRY_TRACES_SAMPLE_RATE,
} from "./domain/error-reporting";

declare global {
  interface Window {
    ENV?: { SENTRY_DSN?: string; NODE_ENV?: string };
  }
}

const dsn = window.ENV?.SENTRY_DSN;
if (dsn) {
  Sentry.init({
    dsn,
    environment: window.ENV?.NODE_ENV,
    tracesSampleRate: SENTRY_TRACES_SAMPLE_RATE,
    replaysOnErrorSampleRate: SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE,
    replaysSessionSampleRate: SENTRY_REPLAYS_SESSION_SAMPLE_RATE,
    ignoreErrors: SENTRY_IGNORE_ERRORS,
    denyUrls: SENTRY_DENY_URLS,
    integrations: [Sentry.browserTracingIntegration({ useEffect, useLocation, useMatches }), Sentry.replayIntegration()],
  });
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
