import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import * as Sentry from "@sentry/remix";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { AppStylesProvider } from "./components/app-styles";
import { NonceProvider } from "./components/nonce";
import { SENTRY_TRACES_SAMPLE_RATE } from "./domain/error-reporting";
import { APP_STYLES } from "./lib/app-styles.server";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, RETRY_AFTER_SECONDS } from "./lib/database-errors.server";
import { env } from "./lib/env.server";
import { acceptsGzip } from "./lib/gzip-template.server";
import { keepPage, keptPage, keptPageGzipped, renderKey } from "./lib/rendered-pages.server";
import { plainErrorPage } from "./lib/request-guards.server";
import { stripNulBytes } from "./lib/strip-nul-bytes.server";

const ABORT_DELAY = 5_000;

const sentryDsn = env().SENTRY_DSN;
if (sentryDsn) {
  Sentry.init({ dsn: sentryDsn, tracesSampleRate: SENTRY_TRACES_SAMPLE_RATE });
}

const logError: HandleErrorFunction = (error, { request, context }) => {
  // A visitor who navigated away, or a page that does not exist, is not an error worth logging.
  if ((request as Request).signal?.aborted || isRouteErrorResponse(error)) return;
  if (isDatabaseUnavailable(error)) {
    // The database is away for a moment (lost, restarting): the page says "try again" (below).
    const seen = (context as Partial<AppLoadContext>).databaseUnavailable;
    if (seen) seen.seen = true;
    console.warn(`${request.method} ${new URL(request.url).pathname}: the database is unavailable:`, (error as Error).message);
    return;
  }
  console.error(error);
};

export const handleError: HandleErrorFunction = Sentry.wrapHandleErrorWithSentry(
  logError as (error: unknown, args: { request: unknown }) => void,
);

/**
 * A page whose loader or action could not reach the database: a plain "try again" page, 503 with
 * Retry-After. The app's shell is not rendered: what it shows (the visitor, their menus) comes from
 * the same database. Its link retries a page, or goes back to the page a form was posted from.
 */
function databaseUnavailablePage(request: Request, headers: Headers, nonce: string) {
  const url = new URL(request.url);
  const href = request.method === "GET" ? url.pathname + url.search : url.pathname;
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  headers.set("Cache-Control", "no-store");
  const page = plainErrorPage(503, "Please try again in a moment", DATABASE_UNAVAILABLE_MESSAGE, {
    link: { href, label: "Try again" },
    nonce,
  });
  return new Response(page, { status: 503, headers });
}

/**
 * The key under which this render may be kept (lib/rendered-pages.server.ts), or null: only a
 * successful GET of a page whose route says its HTML depends on its loaders' data alone
 * (`handle.keepRendered`), for a visitor who is not signed in.
 */
function keepingKey(request: Request, status: number, context: EntryContext, readyEvent: string): string | null {
  const { staticHandlerContext: state, routeModules, serverHandoffString } = context;
  if (request.method !== "GET" || status !== 200 || state.errors || state.actionData || !serverHandoffString) return null;
  const leaf = state.matches[state.matches.length - 1]?.route.id;
  const handle = leaf ? (routeModules[leaf]?.handle as { keepRendered?: boolean } | undefined) : undefined;
  if (!handle?.keepRendered) return null;
  const root = state.loaderData.root as { user?: unknown } | undefined;
  if (!root || root.user) return null;
  return renderKey([readyEvent, request.url, String(status), serverHandoffString]);
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  if (loadContext.databaseUnavailable?.seen) return databaseUnavailablePage(request, responseHeaders, nonce);
  // Crawlers get the whole page at once; people get it streamed.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  const key = keepingKey(request, responseStatusCode, remixContext, readyEvent);
  if (key) {
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    // Gzipped once when kept, with the nonce put in per answer: Express's compression leaves an
    // answer that says its encoding as it is (docs/decisions/060-the-event-page-on-any-machine.md).
    const gzip = acceptsGzip(request.headers.get("accept-encoding"));
    const kept = gzip ? keptPageGzipped(key, nonce) : keptPage(key, nonce);
    if (kept !== null) {
      if (gzip) responseHeaders.set("Content-Encoding", "gzip");
      // Its length known, the answer goes out in one write, without chunked encoding's framing.
      responseHeaders.set("Content-Length", String(typeof kept === "string" ? Buffer.byteLength(kept) : kept.length));
      return new Response(kept, { headers: responseHeaders, status: responseStatusCode });
    }
  }
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <AppStylesProvider value={APP_STYLES}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </AppStylesProvider>
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = stripNulBytes();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          if (key) {
            // A page to keep is sent whole once rendered: it has nothing that waits, so the shell
            // is all of it (its views are rendered without lazy loading, routes/e.$uuid/route.tsx).
            const chunks: Buffer[] = [];
            body.on("data", (chunk: Buffer) => chunks.push(chunk));
            body.on("end", () => {
              const html = Buffer.concat(chunks).toString("utf8");
              if (responseStatusCode === 200) keepPage(key, html, nonce);
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
            });
          } else {
            resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          }
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
