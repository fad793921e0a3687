// What an idle deployment costs: node --import tsx bench/idle-worker.bench.ts [--seconds=60] [--poll=2]
//   (after `npx remix build`)
//
// One web process and one worker (bench/support/topology.ts, `split`) on a throw-away embedded
// PostgreSQL, with no one using them, for `--seconds` after they have started. Printed: the
// statements the database ran a second (transactions committed, from pg_stat_database: each of the
// app's statements outside a transaction is one), and the CPU of each process and of PostgreSQL.
// An idle worker still looks for jobs due every JOB_POLL_SECONDS (`--poll`), sweeps lapsed leases
// and keeps pg-boss's schedule; every worker of a deployment pays that, busy day or not.
import os from "node:os";
import { sql } from "drizzle-orm";
import { benchPostgresPid, loadAverage, option, startBenchDatabase, withBenchFolder } from "./bench-server";
import { type Counted, cpuBetween, readCpu } from "./support/process-usage";
import { startTopology } from "./support/topology";

const SECONDS = Number(option("seconds") ?? 60);
const POLL = option("poll") ?? "2";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function bench(root: string, cleanUps: Array<() => Promise<unknown>>) {
  console.log(`Chorus idle-worker bench — Node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAverage()}`);
  const settings = {
    NODE_ENV: "production",
    SESSION_SECRET: "an idle bench's session secret, the same in both processes",
    JOB_POLL_SECONDS: POLL,
  };
  await startBenchDatabase(root, cleanUps, settings);
  const { db } = await import("~/lib/db.server");
  const app = await startTopology("split", settings, cleanUps);
  const counted: Counted[] = [...app.processes, { role: "PostgreSQL", pid: await benchPostgresPid(root) }];
  // What starting costs (migrations, queues, the first look at every queue) is not idling.
  await sleep(10_000);

  const committed = async () => {
    const [row] = await db().execute<{ n: string }>(
      sql`select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()`,
    );
    return Number(row!.n);
  };
  const [cpuBefore, statementsBefore] = [await readCpu(counted), await committed()];
  await sleep(SECONDS * 1000);
  // The two reads of the count are statements too: left out.
  const statements = (await committed()) - statementsBefore - 2;
  const cpu = cpuBetween(cpuBefore, await readCpu(counted));

  console.log(`Topology: ${app.describe}; JOB_POLL_SECONDS=${POLL}; idle for ${SECONDS} s, load average ${loadAverage()}`);
  console.log(`  statements: ${statements} (${(statements / SECONDS).toFixed(1)} a second)`);
  for (const [role, { own, children }] of cpu) {
    const seconds = own + children;
    console.log(`  ${role.padEnd(10)} ${seconds.toFixed(2)} CPU s (${((seconds / SECONDS) * 100).toFixed(1)}% of a core)`);
  }
}

await withBenchFolder(bench);
// The embedded PostgreSQL's handles would keep the process alive.
process.exit(0);
