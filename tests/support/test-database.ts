import { inject } from "vitest";

/**
 * This worker's own database, a copy of the run's migrated template that
 * tests/support/worker-database.ts makes before the worker's first test file. Files of one worker
 * run one after another in it; files of other workers run at the same time in their own.
 */
export function testDatabaseName(): string {
  const pool = process.env.VITEST_POOL_ID;
  if (!pool) throw new Error("VITEST_POOL_ID is not set: run this through vitest");
  return `${inject("templateDatabase")}_w${pool}`;
}

export function testDatabaseUrl(): string {
  const url = new URL(inject("databaseServerUrl"));
  url.pathname = `/${testDatabaseName()}`;
  return url.toString();
}
