import fs from "node:fs/promises";
import postgres from "postgres";
import { afterAll, beforeAll, inject } from "vitest";
import { closeDb } from "~/lib/db.server";
import { dropSingletonsExcept } from "~/lib/singleton.server";
import { testDatabaseName } from "./test-database";
import { beginTestFile, testFileDataDir } from "./test-file";

// Setup file of the integration and e2e projects: before the worker's first file, copy the run's
// migrated template into the worker's own database (the global teardown drops it); after each
// file, remove the files it stored.

// Run again before each test file, in a process that may have run others before it (vitest.config.ts):
// the file gets an id of its own, and leaves the process as it found it.
beginTestFile();
const dataDir = testFileDataDir();
const settingsBefore = { ...process.env };

beforeAll(async () => {
  const name = testDatabaseName();
  const admin = postgres(inject("databaseServerUrl"), { max: 1, onnotice: () => {} });
  try {
    const [existing] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!existing) await admin.unsafe(`create database ${name} template ${inject("templateDatabase")}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
});

afterAll(async () => {
  // Its settings, the database handle and everything made from its settings (storage in its folder,
  // providers pointed at its stand-ins) go with it. The metrics stay: they are the process's.
  await closeDb();
  dropSingletonsExcept(["metrics"]);
  for (const name of Object.keys(process.env)) if (!(name in settingsBefore)) delete process.env[name];
  Object.assign(process.env, settingsBefore);
  // A job the stopped server handed back may still be finishing a write into the folder as it goes:
  // the removal is tried again (ENOTEMPTY) rather than failing a file whose tests all passed.
  await fs.rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});
