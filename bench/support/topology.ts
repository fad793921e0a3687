// The ways the app is run for a bench, each process on its own as a deployment runs it (docs/deploy.md):
//   single   one `npm start`: web and jobs in one process
//   split    one web process (RUN_WORKER=false) and one worker (`npm run worker`)
//   two-web  two web processes behind a round-robin proxy, and one worker
//   s3       as two-web, with media and uploads in progress on the S3 stand-in
// Each started with the production build and NODE_ENV=production, on the bench's database.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Counted } from "./process-usage";

export const TOPOLOGIES = ["single", "split", "two-web", "s3"] as const;
export type Topology = (typeof TOPOLOGIES)[number];

export interface RunningTopology {
  /** The address people open: the one web process, or the proxy in front of two. */
  url: string;
  /** The app's processes by role, for their CPU and memory. */
  processes: Counted[];
  describe: string;
}

export async function startTopology(
  topology: Topology,
  settings: Record<string, string>,
  cleanUps: Array<() => Promise<unknown>>,
): Promise<RunningTopology> {
  const { startWebProcess, startWorkerProcess, killAppProcesses } = await import("../../tests/support/app-processes");
  const { freePort } = await import("../../tests/support/global-database");
  cleanUps.push(killAppProcesses);
  const webCount = topology === "single" || topology === "split" ? 1 : 2;
  const ports = await Promise.all(Array.from({ length: webCount }, () => freePort()));
  // Behind the proxy, every process names the proxy's address as the app's (links in mail, origins).
  const proxyPort = webCount > 1 ? await freePort() : ports[0]!;
  const url = `http://localhost:${proxyPort}`;
  let s3: Record<string, string> = {};
  if (topology === "s3") {
    const { startS3StandIn } = await import("../../tests/support/s3-stand-in");
    const standIn = await startS3StandIn({ bucket: "chorus-bench" });
    cleanUps.push(() => standIn.close());
    s3 = {
      S3_BUCKET: standIn.bucket,
      S3_ENDPOINT: standIn.endpoint,
      S3_FORCE_PATH_STYLE: "true",
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "BENCHKEYID",
      S3_SECRET_ACCESS_KEY: "bench-secret",
    };
  }
  const base = { ...settings, ...s3, APP_URL: url };
  const [webs, worker] = await Promise.all([
    Promise.all(
      ports.map((port) => startWebProcess({ ...base, PORT: String(port), RUN_WORKER: topology === "single" ? "true" : "false" })),
    ),
    topology === "single" ? null : startWorkerProcess(base),
  ]);
  const processes: Counted[] = webs.map((web, i) => ({ role: webCount > 1 ? `web ${i + 1}` : "web", pid: web.child.pid! }));
  if (worker) processes.push({ role: "worker", pid: worker.child.pid! });
  if (webCount > 1) {
    const proxy = await startRoundRobinProxy(
      proxyPort,
      ports.map((port) => ({ host: "127.0.0.1", port })),
    );
    cleanUps.push(proxy.close);
  }
  const describe = {
    single: "one `npm start` (web and jobs in one process)",
    split: "one web process and one worker",
    "two-web": "two web processes behind a round-robin proxy, one worker",
    s3: "two web processes behind a round-robin proxy, one worker, files and uploads on the S3 stand-in",
  }[topology];
  return { url, processes, describe };
}

/**
 * A load balancer without sticky sessions, in a few lines: each request goes to the next process in
 * turn, its body streamed through unbuffered. Consecutive chunks of one upload reach different
 * processes. As nginx does by default, a GET or HEAD whose connection failed before any answer is
 * tried once more on the next process (a kept-alive connection the process closed as it was reused).
 */
async function startRoundRobinProxy(port: number, targets: Array<{ host: string; port: number }>) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, triesLeft: number) => {
    const target = targets[next++ % targets.length]!;
    const forwarded = http.request({ ...target, agent, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on("error", () => {
      if (res.headersSent) return void res.destroy();
      if (triesLeft > 0 && (req.method === "GET" || req.method === "HEAD")) return forward(req, res, triesLeft - 1);
      res.writeHead(502).end();
    });
    if (req.method === "GET" || req.method === "HEAD") forwarded.end();
    else req.pipe(forwarded);
  };
  const server = http.createServer((req, res) => {
    req.on("error", () => res.destroy());
    forward(req, res, 1);
  });
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}
