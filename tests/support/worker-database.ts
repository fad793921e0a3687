import fs from "node:fs/promises";
import postgres from "postgres";
import { afterAll, beforeAll, inject } from "vitest";
import { testDatabaseName } from "./test-database";
import { TEST_FILE_DATA_DIR } from "./test-file";

// Setup file of the integration and e2e projects: before the worker's first file, copy the run's
// migrated template into the worker's own database (the global teardown drops it); after each
// file, remove the files it stored.

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
  // A job the stopped server handed back may still be finishing a write into the folder as it goes:
  // the removal is tried again (ENOTEMPTY) rather than failing a file whose tests all passed.
  await fs.rm(TEST_FILE_DATA_DIR, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});
