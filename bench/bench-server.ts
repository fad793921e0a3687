// What every benchmark starts with: the real server in this process, on a throw-away embedded
// PostgreSQL and data folder under `root`, with `settings` on top. Each step that must be undone is
// pushed onto `cleanUps` (run in reverse when the bench ends).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * A throw-away embedded PostgreSQL, migrated, under `root`: its address, the data folder beside it
 * and `settings` become this process's settings (read by db() and by a server started after).
 */
export async function startBenchDatabase(root: string, cleanUps: Array<() => Promise<unknown>>, settings: Record<string, string>) {
  const { freePort } = await import("../tests/support/global-database");
  const { migrateDatabase, startEmbeddedPostgres } = await import("~/lib/database-bootstrap.server");
  // Run as root, PostgreSQL runs as a user of its own, which must reach its folder inside `root`.
  await fs.chmod(root, 0o755);
  const database = await startEmbeddedPostgres({ dataDir: path.join(root, "postgres"), port: await freePort() });
  cleanUps.push(() => database.stop());
  await migrateDatabase(database.url);
  const port = await freePort();
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    DATA_DIR: path.join(root, "data"),
    PORT: String(port),
    APP_URL: `http://localhost:${port}`,
    SMTP_URL: "",
    ...settings,
  });
  return { port };
}

export async function startBenchServer(root: string, cleanUps: Array<() => Promise<unknown>>, settings: Record<string, string>) {
  const { port } = await startBenchDatabase(root, cleanUps, settings);
  const { startServer } = await import("../server");
  const server = await startServer({ port, quiet: true });
  cleanUps.push(() => server.close());
  return server;
}

/**
 * Runs `bench` with a temporary folder of its own (readable by the embedded PostgreSQL, which may
 * run as its own user), then runs what it pushed onto `cleanUps`, last first, and removes the folder.
 */
export async function withBenchFolder(bench: (root: string, cleanUps: Array<() => Promise<unknown>>) => Promise<void>) {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "chorus-bench-"));
  await fs.chmod(root, 0o755);
  const cleanUps: Array<() => Promise<unknown>> = [() => fs.rm(root, { recursive: true, force: true })];
  try {
    await bench(root, cleanUps);
  } finally {
    for (const step of cleanUps.reverse()) await step().catch((error: unknown) => console.error("clean-up:", error));
  }
}

/** The pages a first visit is measured on: home, log in, and a Chorus as its contributor and its recipient open it. */
export const firstVisitPages = (event: { uuid: string; privateKey: string }): Array<[string, string]> => [
  ["home", "/"],
  ["log in", "/auth/login"],
  ["contributor", `/e/${event.uuid}`],
  ["recipient", `/e/${event.uuid}?privateKey=${event.privateKey}`],
];
