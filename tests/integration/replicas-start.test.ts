import fs from "node:fs/promises";
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import pg from "pg";
import PgBoss from "pg-boss";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, expect, inject, test } from "vitest";
import { BUILT_IN_TRACKS } from "~/domain/built-in-tracks";
import { JOB_NAMES } from "~/jobs/catalogue";
import { migrationsFolder } from "~/lib/database-bootstrap.server";
import { resetEnvCache } from "~/lib/env.server";
import { killAppProcesses, startWebProcess, startWorkerProcess } from "../support/app-processes";
import { freePort } from "../support/global-database";
import { makeTempDir } from "../support/media-fixtures";
import { startS3StandIn, type S3StandIn } from "../support/s3-stand-in";
import { testDatabaseName } from "../support/test-database";
import { applyTestEnvironment } from "../support/test-server";

// An orchestrator starts replicas together: two web processes (RUN_WORKER=false) and a worker
// (`npm run worker`) at the same moment, on a database none of them has seen, or on one an older
// version of the app left (migrations and queues of its own, pg-boss's schema a version behind).
// Every one of them must come up, and the schema must be what the code expects, made once.

const admin = postgres(inject("databaseServerUrl"), { max: 1, onnotice: () => {} });
let files: Awaited<ReturnType<typeof makeTempDir>>;
let round = 0;
const ADMIN_EMAIL = "first-admin@example.test";

const urlOf = (database: string) => {
  const url = new URL(inject("databaseServerUrl"));
  url.pathname = `/${database}`;
  return url.toString();
};

beforeAll(async () => {
  files = await makeTempDir("replicas-start");
});
afterEach(async () => {
  await killAppProcesses();
});
afterAll(async () => {
  await killAppProcesses();
  // The next test file shares this process: it must find local storage again.
  for (const name of ["S3_BUCKET", "S3_ENDPOINT", "S3_FORCE_PATH_STYLE", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"])
    delete process.env[name];
  resetEnvCache();
  const left = await admin<
    { datname: string }[]
  >`select datname from pg_database where datname like ${`${testDatabaseName()}\\_replicas%`}`;
  for (const { datname } of left) await admin.unsafe(`drop database if exists ${datname} with (force)`);
  await admin.end({ timeout: 5 });
  await files?.remove();
});

async function emptyDatabase() {
  const name = `${testDatabaseName()}_replicas${++round}`;
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  return name;
}

/** The environment of processes on `database`, with a first admin to create. */
async function environmentFor(database: string) {
  return applyTestEnvironment(await freePort(), {
    DATABASE_URL: urlOf(database),
    DATA_DIR: files.path(database),
    RUN_WORKER: "false",
    ADMIN_EMAIL,
    ADMIN_PASSWORD: "a long enough password",
  });
}

/** Two web processes and a worker, all started at once; answers how each start ended. */
async function startThreeAtOnce(base: Record<string, string>) {
  const ports = await Promise.all([freePort(), freePort()]);
  const started = await Promise.allSettled([
    ...ports.map((port) => startWebProcess({ ...base, PORT: String(port), APP_URL: `http://localhost:${port}` })),
    startWorkerProcess(base),
  ]);
  return started.map((outcome) => (outcome.status === "fulfilled" ? "up" : String(outcome.reason)));
}

const s3Settings = (s3: S3StandIn) => ({
  S3_BUCKET: s3.bucket,
  S3_ENDPOINT: s3.endpoint,
  S3_FORCE_PATH_STYLE: "true",
  S3_ACCESS_KEY_ID: "APPKEYID",
  S3_SECRET_ACCESS_KEY: "app-secret",
});

const journal = async () =>
  JSON.parse(await fs.readFile(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };

/** What the database holds once the processes are up: migrations, queues, pg-boss's version, admins. */
async function schemaOf(database: string, queueSchema: string) {
  const sql = postgres(urlOf(database), { max: 1, onnotice: () => {} });
  try {
    const [migrations] = await sql<{ count: number }[]>`select count(*)::int as count from drizzle.__drizzle_migrations`;
    const queues = await sql<{ name: string }[]>`select name from ${sql(queueSchema)}.queue where name not like '\\_\\_pgboss%'`;
    const [version] = await sql<{ version: number }[]>`select version::int as version from ${sql(queueSchema)}.version`;
    const [admins] = await sql<
      { count: number }[]
    >`select count(*)::int as count from users where email = ${ADMIN_EMAIL} and role = 'admin'`;
    return {
      migrations: migrations!.count,
      queues: queues.map((q) => q.name).sort(),
      queueSchemaVersion: version!.version,
      admins: admins!.count,
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function expectedSchema() {
  return {
    migrations: (await journal()).entries.length,
    queues: [...JOB_NAMES].sort(),
    queueSchemaVersion: (JSON.parse(await fs.readFile("node_modules/pg-boss/version.json", "utf8")) as { schema: number }).schema,
    admins: 1,
  };
}

/**
 * What an older version of the app leaves: its first migrations only, and a queue schema of the
 * pg-boss version before this one, holding only some of today's queues.
 */
async function makeOldDatabase(database: string, queueSchema: string) {
  const { entries } = await journal();
  const kept = entries.slice(0, entries.length - 3);
  const older = files.path(`${database}-migrations`);
  await fs.mkdir(path.join(older, "meta"), { recursive: true });
  await fs.writeFile(path.join(older, "meta/_journal.json"), JSON.stringify({ ...(await journal()), entries: kept }));
  for (const { tag } of kept) await fs.copyFile(path.join(migrationsFolder, `${tag}.sql`), path.join(older, `${tag}.sql`));
  const sql = postgres(urlOf(database), { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(sql), { migrationsFolder: older });
  } finally {
    await sql.end({ timeout: 5 });
  }

  const client = new pg.Client({ connectionString: urlOf(database) });
  await client.connect();
  try {
    await client.query(PgBoss.getConstructionPlans(queueSchema));
    for (const name of JOB_NAMES.slice(0, 4)) {
      await client.query(`select ${queueSchema}.create_queue($1, $2)`, [name, JSON.stringify({ policy: "standard" })]);
    }
    // From the version this pg-boss makes to the one before it.
    await client.query(PgBoss.getRollbackPlans(queueSchema));
  } finally {
    await client.end();
  }
}

test(
  "two web processes and a worker started at the same moment on a new, empty database all come up, and make its schema once",
  { timeout: 180_000 },
  async () => {
    const database = await emptyDatabase();
    const base = await environmentFor(database);
    expect(await startThreeAtOnce(base)).toEqual(["up", "up", "up"]);
    expect(await schemaOf(database, base.JOB_QUEUE_SCHEMA!)).toEqual(await expectedSchema());
  },
);

test(
  "two web processes and a worker started at the same moment on an older version's database all come up, and bring it up to date",
  { timeout: 180_000 },
  async () => {
    const database = await emptyDatabase();
    const base = await environmentFor(database);
    await makeOldDatabase(database, base.JOB_QUEUE_SCHEMA!);
    const before = await schemaOf(database, base.JOB_QUEUE_SCHEMA!);
    expect(before.queueSchemaVersion).toBeLessThan((await expectedSchema()).queueSchemaVersion);
    expect(before.queues.length).toBeLessThan(JOB_NAMES.length);

    expect(await startThreeAtOnce(base)).toEqual(["up", "up", "up"]);
    expect(await schemaOf(database, base.JOB_QUEUE_SCHEMA!)).toEqual(await expectedSchema());
  },
);

test(
  "web processes restarted together on a bucket that lacks the built-in music all come up, and each track's file is stored in it",
  { timeout: 180_000 },
  async () => {
    const database = await emptyDatabase();
    const base = await environmentFor(database);
    expect(await startThreeAtOnce(base)).toEqual(["up", "up", "up"]);
    await killAppProcesses();
    // Measured and stored, as the worker leaves them; then media moves to a new bucket.
    const sql = postgres(urlOf(database), { max: 1, onnotice: () => {} });
    try {
      for (const { slug, file } of BUILT_IN_TRACKS) {
        const { size } = await fs.stat(path.join("public", file));
        await sql`update tracks set status = 'ready', size_bytes = ${size}, duration_seconds = 30 where slug = ${slug}`;
      }
    } finally {
      await sql.end({ timeout: 5 });
    }
    const s3 = await startS3StandIn();
    try {
      const inBucket = { ...base, ...s3Settings(s3) };
      expect(await startThreeAtOnce(inBucket)).toEqual(["up", "up", "up"]);
      const stored = s3.requests.filter((r) => r.operation === "PutObject" && r.status === 200 && r.key.startsWith("tracks/built-in/"));
      expect(new Set(stored.map((r) => r.key))).toEqual(
        new Set(BUILT_IN_TRACKS.map(({ slug }) => `tracks/built-in/${slug}/rendition.m4a`)),
      );
    } finally {
      await killAppProcesses();
      await s3.close();
    }
  },
);
