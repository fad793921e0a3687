import { spawn, type ChildProcess } from "node:child_process";
import { appBundle } from "./app-bundle";
import { until } from "./wait";

// The app as it runs for real, in processes of its own: `server.ts` (the web process) and
// `app/jobs/worker.server.ts` (`npm run worker`). For tests of what happens to a process: killed,
// cut off from its database. The build must be there (scripts/test.js builds before integration tests).

export interface AppProcess {
  child: ChildProcess;
  /** What it printed, stdout and stderr together (the last 200 kB). */
  output(): string;
  /** Whether it is still running. */
  alive(): boolean;
  /** Kills it at once (SIGKILL), as a crash or an out-of-memory kill would, and waits for it to be gone. */
  kill(): Promise<void>;
  /** Sends it a signal (SIGTERM: what a deployment sends to stop it); resolves with its exit code once it is gone. */
  signal(signal: NodeJS.Signals): Promise<number | null>;
}

const KEPT_OUTPUT = 200_000;
const started = new Set<AppProcess>();

async function launch(script: string, environment: Record<string, string>, readyLine: string): Promise<AppProcess> {
  // node itself, on the script's bundle (app-bundle.ts): a command in between (tsx, npm) would run
  // the app in a child process of its own, which a kill of the command leaves running.
  const child = spawn(process.execPath, [await appBundle(script)], {
    env: { ...process.env, ...environment },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  const keep = (chunk: Buffer) => {
    printed += chunk.toString();
    if (printed.length > KEPT_OUTPUT) printed = printed.slice(-KEPT_OUTPUT);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const alive = () => child.exitCode === null && child.signalCode === null;
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const app: AppProcess = {
    child,
    signal(signal) {
      child.kill(signal);
      return exit;
    },
    output: () => printed,
    alive,
    async kill() {
      if (!alive()) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
  };
  started.add(app);
  return until(
    () => {
      if (!alive()) throw new Error(`${script} stopped as it started:\n${printed}`);
      return printed.includes(readyLine) && app;
    },
    { timeout: 90_000, interval: 100, what: () => `${script} to start (printed so far:\n${printed})` },
  );
}

/** A web process (`server.ts`) with this environment; resolves once it listens. */
export const startWebProcess = (environment: Record<string, string>) => launch("server.ts", environment, "Chorus is ready: open");

/** A worker process (`npm run worker`) with this environment; resolves once it works jobs. */
export const startWorkerProcess = (environment: Record<string, string>) =>
  launch("app/jobs/worker.server.ts", { ...environment, RUN_WORKER: "true" }, "Chorus worker is running.");

/** Kills every process these helpers started that still runs. */
export async function killAppProcesses() {
  await Promise.all([...started].map((app) => app.kill()));
  started.clear();
}
