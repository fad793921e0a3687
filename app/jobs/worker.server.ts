// `npm run worker`: a process that only works background jobs (mail, SMS, reminders, delivery,
// media, rendering), for deployments that run web and worker processes apart. Its live updates
// (a render's progress, a clip processed) reach open pages through the web processes. With
// WORKER_PORT it answers /healthz, /readyz and /metrics there (docs/deploy.md). On SIGINT/SIGTERM
// it takes no more jobs, gives running ones SHUTDOWN_GRACE_SECONDS, hands the rest back to the
// queue and exits 0.
import http from "node:http";
import { migrateDatabase, provideDatabase } from "~/lib/database-bootstrap.server";
import { closeDb } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { onStopSignal } from "~/lib/stop-signals.server";
import { postgresEmitter } from "~/realtime/fan-out.server";
import { setRealtimeEmitter } from "~/realtime/server.server";
import { liveness, metrics, readiness, type PlainAnswer } from "~/services/health/health.server";
import { jobHandlers } from "./handlers.server";
import { startJobQueue, stopJobQueue } from "./queue.server";

const database = await provideDatabase({ log: console.log });
await migrateDatabase(database.url);
const emitter = postgresEmitter(database.url);
setRealtimeEmitter(emitter);
await startJobQueue(database.url, jobHandlers);

let stopping = false;
const port = env().WORKER_PORT;
const probes =
  port === undefined
    ? null
    : http.createServer((req, res) => {
        const path = (req.url ?? "/").split("?")[0];
        const answer: Promise<PlainAnswer> =
          path === "/healthz"
            ? Promise.resolve(liveness())
            : path === "/readyz"
              ? readiness({ stopping })
              : path === "/metrics"
                ? metrics(req.headers.authorization)
                : Promise.resolve({ status: 404, headers: { "Content-Type": "text/plain" }, body: "Not found" });
        answer.then(
          ({ status, headers, body }) => res.writeHead(status, headers).end(body),
          () => res.writeHead(500).end(),
        );
      });
if (probes) await new Promise<void>((resolve) => probes.listen(port, resolve));
console.log(`Chorus worker is running.${probes ? ` Health and metrics on port ${(probes.address() as { port: number }).port}.` : ""}`);

onStopSignal(async () => {
  stopping = true;
  await stopJobQueue();
  probes?.close();
  probes?.closeAllConnections();
  setRealtimeEmitter(null);
  await emitter.close();
  await closeDb();
  await database.stop();
  process.exit(0);
});
