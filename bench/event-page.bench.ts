// Event page throughput: node --import tsx bench/event-page.bench.ts [--rounds=3] [--seconds=10] [--only=static|contributor|recipient] [--cpu-prof]
// (after `npx remix build`)
//
// The public event page (/e/{uuid}, opened from a contributor's or a recipient's link without a
// log-in) is the page most visits hit. This bench starts the app as `npm start` does — its own
// process, NODE_ENV=production, compression, the request log on (written to a file) — on a
// throw-away embedded PostgreSQL, and loads it with autocannon at 10 connections, asking as a
// phone's browser does (its User-Agent and Accept-Encoding), beside a static file from /build/ in
// the same run: the static file is what the machine serves when the app does no work of its own.
// Each round measures the static file, the contributor's page and the recipient's page, one after
// the other; it prints requests a second, p50 and p99 latency, the page's share of the static
// figure, the server's CPU time a request (its process's user + system time over the figure, read
// from /proc: unlike requests a second, it hardly moves with the machine's other work), and the
// load average. Target: the event page ≥ 400 req/s with p99 ≤ 100 ms.
// `--cpu-prof` writes the server's CPU profile (all rounds) into the folder it names at the end;
// `--only=contributor` (say) loads that one alone, for a profile of it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { loadAverage, startBenchDatabase, withBenchFolder } from "./bench-server";

const CONNECTIONS = 10;
const TARGET_RPS = 400;
const TARGET_P99_MS = 100;
const HEADERS = {
  "user-agent":
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "en-GB,en;q=0.9",
};

const option = (name: string, fallback: number) => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? Number(arg.slice(name.length + 3)) : fallback;
};
const ROUNDS = option("rounds", 3);
const SECONDS = option("seconds", 10);
const CPU_PROFILE = process.argv.includes("--cpu-prof");
const ONLY = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function bench(root: string, cleanUps: Array<() => Promise<unknown>>) {
  const settings = { NODE_ENV: "production", RUN_WORKER: "false" };
  const { port } = await startBenchDatabase(root, cleanUps, settings);
  const { createUser } = await import("../tests/support/accounts");
  const { createTestEvent } = await import("../tests/support/events");
  const event = await createTestEvent(await createUser());

  const server = await startAppProcess(root, cleanUps, port);
  const base = `http://localhost:${port}`;
  const contributor = `${base}/e/${event.uuid}`;
  const recipient = `${base}/e/${event.uuid}?privateKey=${event.privateKey}`;
  const page = await (await get(contributor)).text();
  const sent = await bytesSent(contributor);
  if (!page.includes("Add your photos")) throw new Error("the contributor's page did not answer as expected");
  if (!(await (await get(recipient)).text()).includes("Ana")) throw new Error("the recipient's page did not answer as expected");
  // The first script the page preloads: a fingerprinted file served as it is, compressed on the way.
  const asset = /<link rel="modulepreload" href="(\/build\/[^"]+\.js)"/.exec(page)?.[1];
  if (!asset) throw new Error("no /build/ script on the page");
  const assetBytes = (await fsp.stat(path.join(repoRoot, "public", asset))).size;
  const everyTarget: Array<[string, string]> = [
    [`static ${asset} (${(assetBytes / 1024).toFixed(1)} KB)`, `${base}${asset}`],
    ["event page, contributor's link", contributor],
    ["event page, recipient's link", recipient],
  ];
  const targets = everyTarget.filter(([name]) => !ONLY || name.includes(ONLY));
  // Warm up: the server's code is compiled and its caches filled before anything is counted.
  for (const [, url] of targets) await load(url, 3);

  console.log(`Chorus event page bench — Node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAverage()}`);
  console.log(
    `${CONNECTIONS} connections, ${SECONDS} s a figure, ${ROUNDS} rounds; target: event page ≥ ${TARGET_RPS} req/s, p99 ≤ ${TARGET_P99_MS} ms`,
  );
  // What the server spends with nothing to answer (timers, the job queue's polls), counted in every figure below.
  const idleBefore = server.cpuMs();
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  console.log(`the server idle: ${((server.cpuMs() - idleBefore) / 5).toFixed(0)} ms of CPU a second`);
  console.log(`the contributor's page: ${kilobytes(Buffer.byteLength(page))} of HTML, ${kilobytes(sent.bytes)} as sent (${sent.encoding})`);
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`\nround ${round} (load average before: ${loadAverage()})`);
    let staticRps = 0;
    for (const [name, url] of targets) {
      const cpuBefore = server.cpuMs();
      const result = await load(url, SECONDS);
      const cpuPerRequest = ((server.cpuMs() - cpuBefore) * 1000) / Math.max(1, result.requests.total);
      const rps = result.requests.average;
      if (name.startsWith("static")) staticRps = rps;
      const failed = result.non2xx + result.errors + result.timeouts;
      const share = name.startsWith("static") || !staticRps ? "" : `  ${(rps / staticRps).toFixed(2)} × static`;
      console.log(
        `  ${name.padEnd(36)} ${rps.toFixed(0).padStart(5)} req/s  p50 ${String(result.latency.p50).padStart(3)} ms  p99 ${String(
          result.latency.p99,
        ).padStart(
          4,
        )} ms${share}  CPU ${cpuPerRequest.toFixed(0).padStart(4)} µs a request${failed ? `  (${failed} failed)` : ""}  load ${loadAverage()}`,
      );
    }
  }
  await server.stop();
  if (CPU_PROFILE) console.log(`\nCPU profile of the server: ${server.profileDir}`);
}

/** `npm start`'s server (server.ts in a process of its own), its request log going to a file. */
async function startAppProcess(root: string, cleanUps: Array<() => Promise<unknown>>, port: number) {
  const log = fs.openSync(path.join(root, "requests.log"), "a");
  const profileDir = CPU_PROFILE ? await fsp.mkdtemp(path.join(os.tmpdir(), "chorus-event-page-profile-")) : "";
  const child = spawn(
    process.execPath,
    [...(CPU_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), "--import", "tsx", path.join(repoRoot, "server.ts")],
    { cwd: repoRoot, env: { ...process.env }, stdio: ["ignore", log, "inherit"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  };
  cleanUps.push(stop);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server stopped (exit code ${child.exitCode})`);
    const ready = await fetch(`http://localhost:${port}/readyz`).then(
      (reply) => reply.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error("the server was not ready within 120 s");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  /** The server process's CPU time so far (user + system), in milliseconds. */
  const cpuMs = () => {
    const fields = fs.readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime, fields 14 and 15 of the line (11 and 12 after the command), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  return { stop, profileDir, cpuMs };
}

const get = (url: string) => fetch(url, { headers: HEADERS });
const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** How many bytes the page takes on the wire, and in which encoding (fetch would decode them). */
function bytesSent(url: string) {
  return new Promise<{ bytes: number; encoding: string }>((resolve, reject) => {
    http
      .get(url, { headers: HEADERS }, (reply) => {
        let bytes = 0;
        reply.on("data", (chunk: Buffer) => (bytes += chunk.length));
        reply.on("end", () => resolve({ bytes, encoding: String(reply.headers["content-encoding"] ?? "identity") }));
      })
      .on("error", reject);
  });
}

function load(url: string, seconds: number) {
  return autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: HEADERS });
}

await withBenchFolder(bench);
process.exit(0);
