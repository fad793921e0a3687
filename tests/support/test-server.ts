import crypto from "node:crypto";
import { inject } from "vitest";
import { resetEnvCache } from "../../app/lib/env.server";
import { startServer, type RunningServer } from "../../server";
import { freePort } from "./global-database";

/**
 * This test file's own job queue. Test files run at the same time against one database: with one
 * queue, a server of one file would work the jobs another queued, against files it does not have
 * (its DATA_DIR is another). Modules are fresh for each test file, so this is one per file, kept
 * across a server restart within it.
 */
const TEST_FILE_ID = crypto.randomBytes(5).toString("hex");
const JOB_QUEUE_SCHEMA = `pgboss_test_${TEST_FILE_ID}`;
/** Likewise its own realtime channel: a broadcast to staff reaches this file's sockets only. */
const REALTIME_CHANNEL = `realtime_test_${TEST_FILE_ID}`;

/**
 * The real server (Express, Remix build, socket.io) in this process, on a free
 * port, against the run's test database. `settings` are extra environment values.
 */
export async function startTestServer(settings: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  Object.assign(process.env, {
    NODE_ENV: "test",
    DATABASE_URL: inject("databaseUrl"),
    PORT: String(port),
    APP_URL: `http://localhost:${port}`,
    TRUST_PROXY: "true",
    DATA_DIR: "./data/test",
    SMTP_URL: "",
    JOB_QUEUE_SCHEMA,
    REALTIME_CHANNEL,
    // Pieces are rendered ahead only where a test asks for it: elsewhere it would only load the machine.
    RENDER_AHEAD: "false",
    // Settings a test file changes stay in this process's environment: reset them for the next one.
    RUN_WORKER: "true",
    RENDER_PHOTO_SECONDS: "5",
    RENDER_TITLE_SECONDS: "3.5",
    ...settings,
  });
  resetEnvCache();
  return startServer({ port, quiet: true });
}
