import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { singleton } from "./singleton.server";

// Prometheus metrics of this process, served at /metrics (docs/deploy.md): requests by route
// pattern and status, the job queues' depths and oldest waiting jobs (read from the database when
// scraped, so every process tells the same), render durations, and Node's own process metrics.
// One registry per process, on globalThis: the server entry and the Remix build share it.

function create() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "chorus_" });
  const requests = new Counter({
    name: "chorus_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: "chorus_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const renderSeconds = new Histogram({
    name: "chorus_render_duration_seconds",
    help: "Time a render attempt took in this process, by outcome (succeeded, failed, cancelled).",
    labelNames: ["outcome"] as const,
    buckets: [5, 15, 30, 60, 120, 300, 600, 1200, 2400, 3600],
    registers: [registry],
  });
  const queueDepth = new Gauge({
    name: "chorus_job_queue_depth",
    help: "Jobs per queue: waiting (due to run now) and active (running).",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
  });
  const oldestWaiting = new Gauge({
    name: "chorus_job_queue_oldest_waiting_seconds",
    help: "Age of the oldest job of a queue that is due to run and not yet taken (0 when none waits).",
    labelNames: ["queue"] as const,
    registers: [registry],
  });
  const queueReadFailures = new Counter({
    name: "chorus_job_queue_read_failures_total",
    help: "Scrapes whose read of the job queues failed (their gauges keep the last values read).",
    registers: [registry],
  });
  return { registry, requests, requestSeconds, renderSeconds, queueDepth, oldestWaiting, queueReadFailures };
}

const metrics = () => singleton("metrics", create);

/** Counts one answered request under its route pattern (never the raw path: ids would make a series each). */
export function observeRequest(method: string, route: string, status: number, seconds: number) {
  const labels = { method, route, status: String(status) };
  metrics().requests.inc(labels);
  metrics().requestSeconds.observe(labels, seconds);
}

export function observeRender(outcome: "succeeded" | "failed" | "cancelled", seconds: number) {
  metrics().renderSeconds.observe({ outcome }, seconds);
}

/** What the job queues hold now, as the queue's tables tell (models/job-queue.server.ts). */
interface QueueCounts {
  name: string;
  waiting: number;
  active: number;
  oldestWaitingSince: Date | null;
}

/** The queues' depths and ages, read now by `readQueueCounts`. */
async function readQueues(readQueueCounts: () => Promise<QueueCounts[]>) {
  const { queueDepth, oldestWaiting, queueReadFailures } = metrics();
  try {
    const counts = await readQueueCounts();
    const now = Date.now();
    for (const queue of counts) {
      queueDepth.set({ queue: queue.name, state: "waiting" }, queue.waiting);
      queueDepth.set({ queue: queue.name, state: "active" }, queue.active);
      oldestWaiting.set(
        { queue: queue.name },
        queue.oldestWaitingSince ? Math.max(0, (now - queue.oldestWaitingSince.getTime()) / 1000) : 0,
      );
    }
  } catch {
    queueReadFailures.inc();
  }
}

/**
 * The text Prometheus scrapes. The queues are read by the caller's `readQueueCounts`: this module sits
 * under the job queue and its tables (docs/architecture.md, layers).
 */
export async function metricsText(readQueueCounts: () => Promise<QueueCounts[]>) {
  await readQueues(readQueueCounts);
  return { contentType: metrics().registry.contentType, body: await metrics().registry.metrics() };
}
