import fs from "node:fs/promises";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { migrateDatabase } from "~/lib/database-bootstrap.server";
import { testDatabaseName } from "../support/test-database";

// The web server and the job worker each migrate the database when they start, and they start
// together: on a new database, every one of them must come up.

const name = `${testDatabaseName()}_migrations`;
const admin = postgres(inject("databaseServerUrl"), { max: 1, onnotice: () => {} });
const urlOf = (database: string) => {
  const url = new URL(inject("databaseServerUrl"));
  url.pathname = `/${database}`;
  return url.toString();
};

beforeAll(async () => {
  await admin.unsafe(`drop database if exists ${name}`);
  await admin.unsafe(`create database ${name}`);
});
afterAll(async () => {
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end({ timeout: 5 });
});

test("four processes migrating a new database at once all succeed, and each migration is applied once", async () => {
  const outcomes = await Promise.allSettled([1, 2, 3, 4].map(() => migrateDatabase(urlOf(name))));
  expect(outcomes.map((o) => (o.status === "rejected" ? String(o.reason) : "applied"))).toEqual([
    "applied",
    "applied",
    "applied",
    "applied",
  ]);

  const journal = JSON.parse(await fs.readFile(path.resolve("drizzle/migrations/meta/_journal.json"), "utf8")) as { entries: unknown[] };
  const database = postgres(urlOf(name), { max: 1, onnotice: () => {} });
  try {
    const applied = async () =>
      (await database<{ count: number }[]>`select count(*)::int as count from drizzle.__drizzle_migrations`)[0]!.count;
    expect(await applied()).toBe(journal.entries.length);
    // And again, as every later start does: nothing left to apply, nothing fails.
    await migrateDatabase(urlOf(name));
    expect(await applied()).toBe(journal.entries.length);
  } finally {
    await database.end({ timeout: 5 });
  }
});
