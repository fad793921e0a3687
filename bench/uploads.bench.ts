// Upload benchmark: node --import tsx bench/uploads.bench.ts   (after `npx remix build`)
//
// Starts the real server in this process on a throw-away embedded PostgreSQL and data folder,
// and uploads through tus from a child process (so the client's buffers never count as the
// server's memory). Prints, for the browser's chunk size (2 MB) and a larger one (16 MB):
//   (a) tus throughput for a 200 MB file on loopback next to a plain copy of the same bytes;
//   (b) the server process's peak RSS during a 500 MB upload over its idle RSS;
//   (c) bytes sent twice when a connection drops part-way through a chunk.
// Targets (issue): (a) ≥ 0.8 of a copy, (b) < 150 MB over idle, (c) ≤ one chunk.
import { fork, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { type UploadResult, uploadFile } from "../tests/support/tus-client";

const MB = 1024 * 1024;
const CHUNK_SIZES = [2 * MB, 16 * MB]; // the browser's CHUNK_SIZE (use-uploads.ts), and a larger one
const THROUGHPUT_FILE_MB = 200;
const MEMORY_FILE_MB = 500;
const CUT_FILE_MB = 64;
const RSS_SAMPLE_MS = 50;

interface UploadJob {
  baseUrl: string;
  source: string;
  metadata: Record<string, string>;
  chunkSize: number;
  /** Cut the connection of this chunk after this share of it. */
  cut?: { index: number; share: number };
}
type UploadReply = { ok: true; ms: number; result: UploadResult } | { ok: false; error: string };

/** The child process: uploads what it is sent, one job at a time. */
function runClient() {
  process.on("message", async (job: UploadJob | "exit") => {
    if (job === "exit") return process.exit(0);
    const started = performance.now();
    try {
      const result = await uploadFile(job.baseUrl, job.source, job.metadata, {
        chunkSize: job.chunkSize,
        interrupt: ({ index }) => (job.cut && index === job.cut.index ? { cutAfter: Math.floor(job.chunkSize * job.cut.share) } : undefined),
      });
      process.send!({ ok: true, ms: performance.now() - started, result } satisfies UploadReply);
    } catch (error) {
      process.send!({ ok: false, error: String(error) } satisfies UploadReply);
    }
  });
}

async function main() {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "chorus-bench-"));
  await fs.chmod(root, 0o755); // the embedded PostgreSQL may run as its own user
  const cleanUps: Array<() => Promise<unknown>> = [() => fs.rm(root, { recursive: true, force: true })];
  const cleanUp = async () => {
    for (const step of cleanUps.reverse()) await step().catch((error: unknown) => console.error("clean-up:", error));
  };
  process.once("SIGINT", () => void cleanUp().then(() => process.exit(130)));
  try {
    await bench(root, cleanUps);
  } finally {
    await cleanUp();
  }
}

async function bench(root: string, cleanUps: Array<() => Promise<unknown>>) {
  const { freePort } = await import("../tests/support/global-database");
  const { migrateDatabase, startEmbeddedPostgres } = await import("../app/lib/database-bootstrap.server");
  const database = await startEmbeddedPostgres({ dataDir: path.join(root, "postgres"), port: await freePort() });
  cleanUps.push(() => database.stop());
  await migrateDatabase(database.url);
  const port = await freePort();
  Object.assign(process.env, {
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    DATA_DIR: path.join(root, "data"),
    PORT: String(port),
    APP_URL: `http://localhost:${port}`,
    SMTP_URL: "",
    // Measure receiving only: no transcoding competes for the CPU (the files are noise anyway).
    RUN_WORKER: "false",
  });
  const { startServer } = await import("../server");
  const server = await startServer({ port, quiet: true });
  cleanUps.push(() => server.close());

  const { createUser } = await import("../tests/support/accounts");
  const { createTestEvent } = await import("../tests/support/events");
  const event = await createTestEvent(await createUser());
  const metadata = (name: string) => ({
    eventUuid: event.uuid,
    filename: name,
    filetype: "video/mp4",
    contributorName: "Bench",
    caption: "",
    purpose: "contribution",
    uploadToken: crypto.randomBytes(24).toString("base64url"),
  });

  const client = fork(fileURLToPath(import.meta.url), ["client"], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  cleanUps.push(async () => client.connected && client.send("exit"));
  const tusDir = path.join(root, "data", "storage", "tus");
  const upload = async (job: Omit<UploadJob, "baseUrl" | "metadata">) => {
    const reply = await send(client, { ...job, baseUrl: server.url, metadata: metadata(path.basename(job.source)) });
    // Finished uploads stay as originals; remove them so the disk holds only what the next run needs.
    await fs.rm(tusDir, { recursive: true, force: true });
    await fs.mkdir(tusDir, { recursive: true });
    return reply;
  };

  console.log(`Chorus upload bench — Node ${process.version}, ${os.cpus().length} CPUs, loopback, files in ${os.tmpdir()}\n`);

  // (a) Throughput: best of two runs each, after one warm-up upload.
  const throughputFile = await makeFile(path.join(root, "200mb.bin"), THROUGHPUT_FILE_MB);
  await upload({ source: throughputFile, chunkSize: 2 * MB });
  const streamCopy = await bestOf(2, () => timed(() => pipeline(createReadStream(throughputFile), createWriteStream(path.join(root, "copy.bin")))));
  const fileCopy = await bestOf(2, () => timed(() => fs.copyFile(throughputFile, path.join(root, "copy.bin"))));
  await fs.rm(path.join(root, "copy.bin"), { force: true });
  const rate = (ms: number) => THROUGHPUT_FILE_MB / (ms / 1000);
  console.log(`(a) Throughput, ${THROUGHPUT_FILE_MB} MB file`);
  console.log(`    stream copy (read → write)     ${fmt(rate(streamCopy))} MB/s`);
  console.log(`    fs.copyFile (kernel copy)      ${fmt(rate(fileCopy))} MB/s`);
  for (const chunkSize of CHUNK_SIZES) {
    const ms = await bestOf(2, async () => (await upload({ source: throughputFile, chunkSize })).ms);
    const tus = rate(ms);
    console.log(
      `    tus, ${label(chunkSize)} chunks             ${fmt(tus)} MB/s   ` +
        `= ${(tus / rate(streamCopy)).toFixed(2)} × stream copy, ${(tus / rate(fileCopy)).toFixed(2)} × copyFile  (target ≥ 0.80)`,
    );
  }
  await fs.rm(throughputFile);

  // (b) Memory: the server's RSS while a 500 MB upload arrives, over its idle RSS just before.
  const memoryFile = await makeFile(path.join(root, "500mb.bin"), MEMORY_FILE_MB);
  console.log(`\n(b) Server RSS during a ${MEMORY_FILE_MB} MB upload`);
  for (const chunkSize of CHUNK_SIZES) {
    const idle = await sampleRss(1000);
    const during = sampleRssUntil(upload({ source: memoryFile, chunkSize }));
    const { peak, value } = await during;
    const over = peak - idle.peak;
    console.log(
      `    ${label(chunkSize)} chunks: idle ${fmt(idle.peak / MB)} MB, peak ${fmt(peak / MB)} MB, ` +
        `+${fmt(over / MB)} MB over idle (target < 150 MB), ${fmt(MEMORY_FILE_MB / (value.ms / 1000))} MB/s`,
    );
  }
  await fs.rm(memoryFile);

  // (c) A connection dropped 60% into the fourth chunk.
  const cutFile = await makeFile(path.join(root, "64mb.bin"), CUT_FILE_MB);
  console.log(`\n(c) Bytes sent twice after a cut 60% into a chunk (${CUT_FILE_MB} MB file)`);
  for (const chunkSize of CHUNK_SIZES) {
    const { result } = await upload({ source: cutFile, chunkSize, cut: { index: 3, share: 0.6 } });
    console.log(
      `    ${label(chunkSize)} chunks: cut after ${fmt((chunkSize * 0.6) / MB)} MB, re-sent ${result.resentBytes} bytes ` +
        `(${fmt((100 * result.resentBytes) / chunkSize)}% of a chunk; target ≤ one chunk), ${result.requests} requests`,
    );
  }
}

function send(client: ChildProcess, job: UploadJob) {
  return new Promise<{ ms: number; result: UploadResult }>((resolve, reject) => {
    client.once("message", (reply: UploadReply) => (reply.ok ? resolve(reply) : reject(new Error(reply.error))));
    client.send(job);
  });
}

/** A file of `mb` MB of random bytes (one random 16 MB block, repeated: nothing here compresses). */
async function makeFile(file: string, mb: number) {
  const block = crypto.randomBytes(16 * MB);
  const out = await fs.open(file, "w");
  try {
    for (let written = 0; written < mb * MB; written += block.length) await out.write(block, 0, Math.min(block.length, mb * MB - written));
  } finally {
    await out.close();
  }
  return file;
}

async function timed(run: () => Promise<unknown>) {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function bestOf(times: number, run: () => Promise<number>) {
  let best = Infinity;
  for (let i = 0; i < times; i++) best = Math.min(best, await run());
  return best;
}

async function sampleRss(ms: number) {
  return sampleRssUntil(new Promise((resolve) => setTimeout(resolve, ms)));
}

/** The highest RSS of this process (the server) seen every RSS_SAMPLE_MS until `work` settles. */
async function sampleRssUntil<T>(work: Promise<T>) {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), RSS_SAMPLE_MS);
  try {
    const value = await work;
    return { peak: Math.max(peak, process.memoryUsage().rss), value };
  } finally {
    clearInterval(timer);
  }
}

const fmt = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const label = (bytes: number) => `${bytes / MB} MB`;

// Last, so every constant above is initialised before the top-level await runs.
if (process.argv[2] === "client") runClient();
else await main();
