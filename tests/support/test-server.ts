import { resetEnvCache } from "~/lib/env.server";
import { startServer, type RunningServer } from "../../server";
import { freePort } from "./global-database";
import { testDatabaseUrl } from "./test-database";
import { testFileDataDir, testFileId } from "./test-file";

/**
 * The environment of this test file's server, set on this process (whose models then reach the same
 * database) and returned, for a server or worker started as a process of its own.
 */
export function applyTestEnvironment(port: number, settings: Record<string, string> = {}): Record<string, string> {
  const values = {
    // This test file's own job queue. The files of one worker share its database one after another:
    // a job one file left queued must not be worked by the next, against files it does not have (its
    // DATA_DIR is another).
    JOB_QUEUE_SCHEMA: `pgboss_test_${testFileId()}`,
    // Likewise its own realtime channel: a broadcast to staff reaches this file's sockets only.
    REALTIME_CHANNEL: `realtime_test_${testFileId()}`,
    NODE_ENV: "test",
    DATABASE_URL: testDatabaseUrl(),
    PORT: String(port),
    APP_URL: `http://localhost:${port}`,
    TRUST_PROXY: "true",
    DATA_DIR: testFileDataDir(),
    SMTP_URL: "",
    // Pieces are rendered ahead only where a test asks for it: elsewhere it would only load the machine.
    RENDER_AHEAD: "false",
    // Likewise the HLS ladder of each published version: made only where a test is about it.
    VIDEO_LADDER: "false",
    // Settings a test file changes stay in this process's environment: reset them for the next one.
    RUN_WORKER: "true",
    RENDER_PHOTO_SECONDS: "5",
    RENDER_TITLE_SECONDS: "3.5",
    JOB_LEASE_SECONDS: "20",
    JOB_HEARTBEAT_SECONDS: "5",
    JOB_SWEEP_SECONDS: "5",
    // The local payment service unless a test points the app at a Stripe stand-in.
    STRIPE_SECRET_KEY: "",
    STRIPE_WEBHOOK_SECRET: "",
    STRIPE_API_HOST: "",
    STRIPE_API_PORT: "",
    STRIPE_API_PROTOCOL: "",
    STRIPE_TIMEOUT_SECONDS: "20",
    STRIPE_NETWORK_RETRIES: "2",
    // The local tree-planting vendor unless a test points the app at a stand-in.
    TREES_API_KEY: "",
    // A test's server stops without waiting long for what it left running.
    SHUTDOWN_GRACE_SECONDS: "5",
    ...settings,
  };
  Object.assign(process.env, values);
  resetEnvCache();
  return values;
}

/**
 * The real server (Express, Remix build, socket.io) in this process, on a free
 * port, against the worker's test database. `settings` are extra environment values.
 */
export async function startTestServer(settings: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  applyTestEnvironment(port, settings);
  return startServer({ port, quiet: true });
}
