import crypto from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { migrateDatabase, startEmbeddedPostgres } from "~/lib/database-bootstrap.server";
import { parseProcStat } from "./proc-stat";

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL server of the run, at a database that is neither the template nor a copy. */
    databaseServerUrl: string;
    /** The migrated database each worker copies its own from (tests/support/worker-database.ts). */
    templateDatabase: string;
  }
}

/** A port no one listens on, for a server a test starts (it listens on it a moment later). */
export async function freePort(): Promise<number> {
  // Below the range the kernel hands out to outgoing connections: a port from that range (what
  // listening on port 0 gives) was sometimes taken by some process's connection in the seconds
  // between this check and the server's own listen, and the server failed with EADDRINUSE.
  const [from, to] = [20_000, ephemeralPortsStart()];
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = from + crypto.randomInt(to - from);
    if (await portIsFree(port)) return port;
  }
  throw new Error(`No free port found between ${from} and ${to}.`);
}

/** The first port of the kernel's range for outgoing connections (Linux), else the usual one. */
function ephemeralPortsStart() {
  try {
    const first = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return first > 21_000 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

/** Whether the port can be listened on, on every address, as the servers under test listen. */
function portIsFree(port: number) {
  return new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/**
 * What the embedded PostgreSQL cost the cores (its server process and the connections' processes
 * that have ended), beside the test files' own lines (tests/support/file-cpu.ts).
 */
function logServerCpu(dataDir: string) {
  const out = process.env.TEST_CPU_LOG;
  if (!out) return;
  try {
    const pid = readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]!.trim();
    const { own, ended } = parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
    const line = { file: "(the embedded PostgreSQL)", own, children: ended };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  } catch {
    // Not Linux, or the server is gone: nothing to add.
  }
}

/**
 * Where the embedded PostgreSQL spent its time, when TEST_PG_STATEMENTS names a file (a diagnosis,
 * not part of a usual run): its sessions and busy time by database, and the statements that took
 * longest in all, appended to that file as JSON lines.
 */
async function logStatements(admin: postgres.Sql, out: string, project: string) {
  await admin.unsafe("create extension if not exists pg_stat_statements");
  const databases = await admin`
    select datname, sessions, round(session_time) as session_ms, round(active_time) as active_ms, xact_commit
    from pg_stat_database where datname is not null order by active_time desc`;
  const statements = await admin`
    select calls, round(total_exec_time) as total_ms, round(total_plan_time) as plan_ms, rows, left(query, 300) as query
    from pg_stat_statements order by total_exec_time + total_plan_time desc limit 80`;
  appendFileSync(out, `${JSON.stringify({ project, databases, statements })}\n`);
}

/**
 * Migrates a template database once for the project's run: on the server named by DATABASE_URL
 * when set, otherwise on an embedded PostgreSQL in a temporary folder. Each worker then works in
 * its own copy of it, so test files run side by side without seeing each other's rows; the copies
 * and the template are dropped when the run ends.
 */
export default async function setup(project: TestProject) {
  let serverUrl = process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let tempDir: string | undefined;
  if (!serverUrl) {
    tempDir = await fs.mkdtemp(path.join(os.tmpdir(), "chorus-test-pg-"));
    await fs.chmod(tempDir, 0o755);
    const running = await startEmbeddedPostgres({
      dataDir: path.join(tempDir, "data"),
      port: await freePort(),
      throwAway: true,
      settings: process.env.TEST_PG_STATEMENTS ? { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" } : {},
    });
    serverUrl = running.url;
    stopEmbedded = running.stop;
  }

  const template = `chorus_test_${crypto.randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${template}`);
  const url = new URL(serverUrl);
  url.pathname = `/${template}`;
  await migrateDatabase(url.toString());

  project.provide("databaseServerUrl", serverUrl);
  project.provide("templateDatabase", template);

  return async () => {
    if (tempDir && process.env.TEST_PG_STATEMENTS) await logStatements(admin, process.env.TEST_PG_STATEMENTS, project.name);
    const copies = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${`${template}\\_w%`}`;
    for (const { datname } of copies) await admin.unsafe(`drop database if exists ${datname} with (force)`);
    await admin.unsafe(`drop database if exists ${template} with (force)`);
    await admin.end({ timeout: 5 });
    if (tempDir) logServerCpu(path.join(tempDir, "data"));
    await stopEmbedded?.();
    if (tempDir) await fs.rm(tempDir, { recursive: true, force: true });
  };
}
