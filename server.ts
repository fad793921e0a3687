import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import type { Server as TusServer } from "@tus/server";
import compression from "compression";
import express from "express";
import { jobHandlers } from "~/jobs/handlers.server";
import { startJobQueue, stopJobQueue, stopWorkingJobs } from "~/jobs/queue.server";
import { migrateDatabase, provideDatabase, withStartUpLock, type RunningDatabase } from "~/lib/database-bootstrap.server";
import { closeDb } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { CLIENT_IP_HEADER } from "~/lib/http.server";
import { appUrlWarning } from "~/lib/links.server";
import { keepPrivateAnswersOutOfCaches } from "~/lib/private-answers.server";
import { finalErrorHandler, refuseMalformedPaths } from "~/lib/request-guards.server";
import { requestLog, routePatterns } from "~/lib/request-log.server";
import { buildForPath } from "~/lib/route-subset.server";
import { assignCspNonce, contentSecurityPolicy, rejectCrossOriginMutations } from "~/lib/security.server";
import { onStopSignal } from "~/lib/stop-signals.server";
import { postgresAdapter } from "~/realtime/fan-out.server";
import { attachRealtime } from "~/realtime/server.server";
import { ensureBuiltInThemes } from "~/services/arrange/themes.server";
import { ensureBuiltInTracks } from "~/services/arrange/tracks.server";
import { liveness, metrics, readiness, type PlainAnswer } from "~/services/health/health.server";
import { ensureAdmin } from "~/services/staff/admin-bootstrap.server";
import { tusRequestHandler } from "~/services/uploads/tus-append.server";
import { closeUploadLocks, corsOriginOf, createTusServer, TUS_PATH } from "~/services/uploads/tus-endpoint.server";
import { finishOnHead, startUploadCompletionSweep } from "~/services/uploads/upload-completion.server";
import { uploaderOnly } from "~/services/uploads/uploader-only.server";

const root = path.dirname(fileURLToPath(import.meta.url));
/** What an event page's path looks like; any uuid serves to find the routes such a page uses. */
const EVENT_PAGE_PATH = /^\/e\/[^/]+$/;
const EVENT_PAGE_SAMPLE_UUID = "00000000-0000-4000-8000-000000000000";
const serviceWorkerFile = path.join(root, "public/sw.js");

export interface StartOptions {
  port?: number;
  /** Quiet request logging (tests). */
  quiet?: boolean;
}

export interface RunningServer {
  url: string;
  port: number;
  close: () => Promise<void>;
}

async function loadBuild(): Promise<ServerBuild> {
  const file = path.join(root, "build/index.js");
  return (await import(pathToFileURL(file).href)) as ServerBuild;
}

/** What a stopping server tells and waits for (docs/deploy.md). */
interface Lifecycle {
  stopping: boolean;
  /** Requests being answered now, upload chunks included. */
  inFlight: Set<http.ServerResponse>;
  /** Called whenever a request ends. */
  onIdle: () => void;
}

const send = (res: express.Response, answer: PlainAnswer) => res.status(answer.status).set(answer.headers).send(answer.body);

/** Express app: request log and metrics, health, security headers, static files, the Remix handler. */
function createApp(build: ServerBuild, quiet: boolean, tusServer: TusServer, lifecycle: Lifecycle) {
  const settings = env();
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", settings.TRUST_PROXY);
  // Express's own error pages print stacks unless its env is "production": ours never do (below).
  app.set("env", "production");
  app.use((_req, res, next) => {
    lifecycle.inFlight.add(res);
    res.once("close", () => {
      lifecycle.inFlight.delete(res);
      lifecycle.onIdle();
    });
    // A stopping server answers what it was asked on open connections, and closes them after.
    if (lifecycle.stopping) res.setHeader("Connection", "close");
    next();
  });
  const routeOf = routePatterns(build, TUS_PATH);
  app.use(requestLog(routeOf, { quiet }));
  app.get("/healthz", (_req, res) => send(res, liveness()));
  app.get("/readyz", (_req, res, next) => void readiness({ stopping: lifecycle.stopping }).then((answer) => send(res, answer), next));
  app.get("/metrics", (req, res, next) => void metrics(req.get("authorization")).then((answer) => send(res, answer), next));
  app.use(refuseMalformedPaths);
  // Money and personal data (bills, receipts, payment pages, the dashboard, the API) are never cached.
  app.use(keepPrivateAnswersOutOfCaches);
  app.use(rejectCrossOriginMutations(settings.APP_URL));
  app.use((req, _res, next) => {
    // Only the server says who the client is; a header sent by the client is replaced.
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    next();
  });
  // Upload chunks come before the page middleware below: they need no compression, CSP or static
  // files, which cost ~0.15 ms on every chunk (bench/uploads.bench.ts).
  // Reading a finished upload back (GET) is a page route with its own access check
  // (app/routes/uploads.tus.$id.ts), not tus's, which streams it to anyone holding the URL.
  const tus = tusRequestHandler(tusServer, TUS_PATH);
  const finishBeforeHead = finishOnHead(tusServer);
  // An upload's HEAD, PATCH and DELETE are its uploader's alone (docs/decisions/013), before anything reads or changes it.
  const refusedToStrangers = uploaderOnly(tusServer, corsOriginOf(tusServer));
  app.use(TUS_PATH, (req, res, next) => {
    if (req.method === "GET") return next();
    // Mounted at TUS_PATH, req.url is the rest of the path: tus matches on the whole of it.
    req.url = req.originalUrl;
    // A client resuming asks for the offset first: a complete upload is recorded before it hears "complete".
    refusedToStrangers(req, res)
      .then((refused) => refused || (req.method === "HEAD" ? finishBeforeHead(req, res) : false))
      .then((answered) => (answered ? undefined : tus(req, res)))
      .catch(next);
  });

  // From 256 bytes, not compression's 1 KB: a first visit loads a dozen build chunks of 0.3–1 KB,
  // which gzip makes a third smaller (about 3 KB a page); below 256 bytes gzip's own header costs more.
  app.use(compression({ threshold: 256 }));
  app.use(assignCspNonce);
  app.use(contentSecurityPolicy({ sentryDsn: settings.SENTRY_DSN, https: settings.APP_URL.startsWith("https:") }));

  // Chromium asks for /favicon.ico when the root's error boundary makes the document anew
  // (tests/e2e/styles-in-page.test.ts), and a 404 there is an error in its console: the app's one
  // icon is public/favicon.svg.
  app.get("/favicon.ico", (_req, res) => res.redirect(301, "/favicon.svg"));
  // Fingerprinted build assets never change; everything else in public/ may.
  app.use("/build", express.static(path.join(root, "public/build"), { immutable: true, maxAge: "1y" }));
  const publicFiles = express.static(path.join(root, "public"), {
    maxAge: "1h",
    setHeaders: (res, file) => {
      // The service worker is checked for a new version on every visit, never taken from a cache
      // (docs/decisions/027); its scope, /e/, is within its own directory, so it needs no
      // Service-Worker-Allowed header.
      if (file === serviceWorkerFile) res.setHeader("Cache-Control", "no-cache");
    },
  });
  // public/ has no e/ folder: an event page's path is never a file there, and looking it up on
  // disk took a tenth of the page's time (docs/decisions/060-the-event-page-on-any-machine.md).
  app.use((req, res, next) => (EVENT_PAGE_PATH.test(req.path) ? next() : publicFiles(req, res, next)));
  const remixHandler = (routes: ServerBuild) =>
    createRequestHandler({
      build: routes,
      // Remix answers with stacks in development mode: only `npm run dev` uses it.
      mode: settings.NODE_ENV === "development" ? "development" : "production",
      getLoadContext: (_req, res) => ({ cspNonce: String(res.locals.cspNonce), databaseUnavailable: { seen: false } }),
    });
  const everyPage = remixHandler(build);
  // The public event page, the busiest, is answered from a build of its own few routes: matching
  // against all of them costs more than the page (app/lib/route-subset.server.ts). Only a page
  // load goes there (no form, no data request), and only when the whole build matches its path
  // to that route.
  const eventPage = remixHandler(buildForPath(build, `/e/${EVENT_PAGE_SAMPLE_UUID}`));
  // No route pattern here: a pattern with a parameter would make Express decode the whole path.
  app.use((req, res, next) => {
    if ((req.method === "GET" || req.method === "HEAD") && EVENT_PAGE_PATH.test(req.path)) {
      // The address as Remix reads it, with the same URL parser.
      const url = new URL(req.originalUrl, "http://localhost");
      if (!url.searchParams.has("_data") && routeOf(url.pathname) === "/e/:uuid") return void eventPage(req, res, next);
    }
    void everyPage(req, res, next);
  });
  app.use(finalErrorHandler);
  return app;
}

/** Database, migrations, first admin, job queue, HTTP and socket.io — everything `npm start` runs. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const log = (line: string) => options.quiet || console.log(line);
  const database: RunningDatabase = await provideDatabase({ log });
  const settings = env();
  // Under the start-up lock: web processes started together would both create the first admin.
  await migrateDatabase(database.url, async () => {
    if (settings.ADMIN_EMAIL) {
      const { created } = await ensureAdmin(settings.ADMIN_EMAIL, settings.ADMIN_PASSWORD);
      if (created) log(`Created the admin account ${settings.ADMIN_EMAIL}`);
    }
    await ensureBuiltInThemes();
  });

  await startJobQueue(database.url, settings.RUN_WORKER ? jobHandlers : undefined);
  // After the queue (it queues their measuring), under the start-up lock: web processes started
  // together each stored a lost rendition again, in the one work folder of its track, and one
  // removed the other's copy from under it.
  await withStartUpLock(database.url, () => ensureBuiltInTracks());

  const build = await loadBuild();
  const tusServer = createTusServer();
  let settle: (() => void) | undefined;
  const lifecycle: Lifecycle = { stopping: false, inFlight: new Set(), onIdle: () => lifecycle.inFlight.size === 0 && settle?.() };
  const server = http.createServer(createApp(build, !!options.quiet, tusServer, lifecycle));
  // Complete uploads whose intake did not finish (the process died after their last byte).
  const uploadSweep = startUploadCompletionSweep(tusServer);
  // Broadcasts reach the sockets of other web processes and come in from workers (fan-out.server.ts).
  const fanOut = postgresAdapter(database.url);
  const io = attachRealtime(server, settings.APP_URL, fanOut.adapter);
  const port = options.port ?? settings.PORT;
  await new Promise<void>((resolve) => server.listen(port, resolve));
  const actualPort = (server.address() as { port: number }).port;
  log(`Chorus is ready: open ${settings.APP_URL}${database.embedded ? " (embedded PostgreSQL)" : ""}`);
  const warning = appUrlWarning(settings.APP_URL, actualPort);
  if (warning) log(warning);
  if (settings.NODE_ENV === "production" && !settings.SMTP_URL) {
    log("No SMTP_URL: mail is kept in the local outbox, readable at /dev/outbox from this machine only.");
  }
  if (settings.NODE_ENV === "production" && !settings.SESSION_SECRET) {
    log(
      `No SESSION_SECRET: log-ins are signed with the secret kept in ${settings.DATA_DIR}; set one when running more than one web process.`,
    );
  }

  /**
   * Stops as a deployment expects on SIGTERM: readiness says 503 at once; no new connection is
   * taken; requests and upload chunks under way get SHUTDOWN_GRACE_SECONDS to finish (a chunk cut
   * after that keeps what arrived, and its upload resumes from there); running jobs get as long,
   * then go back to the queue for another worker; then sockets and connections close.
   */
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      lifecycle.stopping = true;
      // Requests under way are answered, and their connections closed after: none is kept alive.
      for (const res of lifecycle.inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
      uploadSweep.stop();
      const graceMs = settings.SHUTDOWN_GRACE_SECONDS * 1000;
      // io.close() stops the HTTP server listening and ends the realtime sockets: their clients
      // connect again to another process. Connections still answering are waited for below.
      const closed = new Promise<void>((resolve) => void io.close(() => resolve()));
      const drained = new Promise<void>((resolve) => {
        const idle = setInterval(() => server.closeIdleConnections(), 250);
        const timer = setTimeout(() => settle?.(), graceMs);
        settle = () => {
          clearTimeout(timer);
          clearInterval(idle);
          resolve();
        };
        if (lifecycle.inFlight.size === 0) settle();
      });
      await Promise.all([drained, stopWorkingJobs(graceMs)]);
      server.closeAllConnections();
      await closed;
      await stopJobQueue();
      await closeUploadLocks(tusServer);
      await fanOut.close();
      await closeDb();
      await database.stop();
    })());
  return { url: `http://localhost:${actualPort}`, port: actualPort, close };
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  startServer()
    .then((running) => {
      const stop = (signal: string) => {
        console.log(`${signal} received, shutting down...`);
        running.close().then(
          () => process.exit(0),
          (error) => {
            console.error(error);
            process.exit(1);
          },
        );
      };
      onStopSignal(stop);
    })
    .catch((error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
