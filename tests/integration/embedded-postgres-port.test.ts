import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, test } from "vitest";
import { startEmbeddedPostgres, type RunningDatabase } from "~/lib/database-bootstrap.server";
import { embeddedPostgresPort, keptPortFile } from "~/lib/embedded-postgres-port.server";
import { freePort } from "../support/global-database";

const folders: string[] = [];
const running: RunningDatabase[] = [];
afterAll(async () => {
  await Promise.all(running.map((database) => database.stop().catch(() => {})));
  await Promise.all(folders.map((folder) => fs.rm(folder, { recursive: true, force: true })));
});

/** A data folder of a copy of the app, as `npm start` makes it (`<DATA_DIR>/postgres`). */
async function copyOfTheApp() {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "chorus-copy-"));
  folders.push(folder);
  // Run as root, PostgreSQL runs as its own user, which must reach the folder (as in global-database.ts).
  await fs.chmod(folder, 0o755);
  return path.join(folder, "postgres");
}

async function start(dataDir: string, defaultPort: number) {
  const database = await startEmbeddedPostgres({ dataDir, defaultPort });
  running.push(database);
  return database;
}

async function answers(url: string) {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return (await client`select 1 as one`)[0]?.one;
  } finally {
    await client.end();
  }
}

/** Something else listening on the port, as another program would. */
async function hold(port: number) {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen({ port, host: "127.0.0.1" }, resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

describe("the embedded PostgreSQL's port", () => {
  test("a second copy started beside the first takes the next free port, keeps it, and both answer", { timeout: 120_000 }, async () => {
    // The default port of this test: one that nothing listens on, as 54329 on a machine with no copy running.
    const defaultPort = await freePort();
    const [first, second] = [await copyOfTheApp(), await copyOfTheApp()];

    const firstDatabase = await start(first, defaultPort);
    expect(new URL(firstDatabase.url).port).toBe(String(defaultPort));
    const secondDatabase = await start(second, defaultPort);
    const secondPort = Number(new URL(secondDatabase.url).port);
    expect(secondPort).not.toBe(defaultPort);
    expect(await answers(firstDatabase.url)).toBe(1);
    expect(await answers(secondDatabase.url)).toBe(1);
    expect((await fs.readFile(keptPortFile(second), "utf8")).trim()).toBe(String(secondPort));

    // Started again after the first copy stopped, the second stays where it was: its address does not move.
    await firstDatabase.stop();
    await secondDatabase.stop();
    const again = await start(second, defaultPort);
    expect(Number(new URL(again.url).port)).toBe(secondPort);
    expect(await answers(again.url)).toBe(1);
  });

  test("a kept port taken since by another program is given up for a free one; a set port is used as it is", async () => {
    const defaultPort = await freePort();
    const dataDir = await copyOfTheApp();
    expect(await embeddedPostgresPort(dataDir, undefined, { defaultPort })).toBe(defaultPort);
    const release = await hold(defaultPort);
    try {
      const moved = await embeddedPostgresPort(dataDir, undefined, { defaultPort });
      expect(moved).not.toBe(defaultPort);
      expect(await embeddedPostgresPort(dataDir, undefined, { defaultPort })).toBe(moved);
      // A port set in EMBEDDED_POSTGRES_PORT is the user's: used even when taken, and not kept.
      expect(await embeddedPostgresPort(dataDir, defaultPort, { defaultPort })).toBe(defaultPort);
      expect((await fs.readFile(keptPortFile(dataDir), "utf8")).trim()).toBe(String(moved));
    } finally {
      await release();
    }
  });
});
