// Upload benchmark: node --import tsx bench/uploads.bench.ts   (after `npx remix build`)
//
// Starts the real server in this process on a throw-away embedded PostgreSQL and data folder,
// and uploads through tus from a child process (so the client's buffers never count as the
// server's memory). Prints, for fixed 2 MB and 16 MB chunks and for the browser's chunks (2 MB,
// doubling while they arrive fast, up to 32 MB: app/lib/upload-chunk-size.ts):
//   (a) tus throughput for a 200 MB file on loopback next to a plain copy of the same bytes, and
//       next to a bare node:http receiver that appends the same chunks to a file (no tus);
//   (b) the server process's peak RSS during a 500 MB upload over its idle RSS;
//   (c) bytes sent twice when a connection drops part-way through a chunk.
// Targets: (a) ≥ 0.8 of a copy, (b) < 150 MB over idle, (c) ≤ one chunk.
import { fork, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { chunkSizeAfterFailure, FIRST_CHUNK_BYTES, LARGEST_CHUNK_BYTES, nextChunkSize } from "~/lib/browser/upload-chunk-size";
import { mp4LikeBytes } from "../tests/support/media-fixtures";
import { type UploadResult, create, head, patch, patchAndCut } from "../tests/support/tus-client";
import { startBenchServer } from "./bench-server";

const MB = 1024 * 1024;
/** Fixed chunk sizes, and the browser's growing chunks (use-uploads.ts). */
type Chunking = number | "browser";
const CHUNKINGS: Chunking[] = [2 * MB, 16 * MB, "browser"];
const THROUGHPUT_FILE_MB = 200;
const THROUGHPUT_ROUNDS = 3;
const MEMORY_FILE_MB = 500;
const CUT_FILE_MB = 64;
const RSS_SAMPLE_MS = 50;

interface UploadJob {
  baseUrl: string;
  source: string;
  metadata: Record<string, string>;
  chunking: Chunking;
  /** Cut the connection of this chunk after this share of it. */
  cut?: { index: number; share: number };
}
/** `cutChunk`: the size of the chunk whose connection was cut. */
type Uploaded = UploadResult & { cutChunk?: number };
type UploadReply = { ok: true; ms: number; result: Uploaded } | { ok: false; error: string };

/** The child process: uploads what it is sent, one job at a time. */
function runClient() {
  process.on("message", async (job: UploadJob | "exit") => {
    if (job === "exit") return process.exit(0);
    const started = performance.now();
    try {
      const result = await uploadInChunks(job);
      process.send!({ ok: true, ms: performance.now() - started, result } satisfies UploadReply);
    } catch (error) {
      process.send!({ ok: false, error: String(error) } satisfies UploadReply);
    }
  });
}

/**
 * Uploads as tests/support/tus-client.ts does (each chunk read, then sent; HEAD for the offset
 * after a cut), with the chunk sizes asked for. With the browser's chunking (use-uploads.ts) the
 * first chunk is FIRST_CHUNK_BYTES and each next one is sized by nextChunkSize from how long the
 * last took to be accepted, back to the first size after a failure.
 */
async function uploadInChunks({ baseUrl, source, metadata, chunking, cut }: UploadJob): Promise<Uploaded> {
  const file = await fs.open(source, "r");
  try {
    const size = (await file.stat()).size;
    const buffer = Buffer.alloc(chunking === "browser" ? LARGEST_CHUNK_BYTES : chunking);
    const path = await create(baseUrl, size, metadata);
    const result: Uploaded = { path, mediaUuid: null, sentBytes: 0, resentBytes: 0, lostPerCut: [], requests: 1 };
    let chunkSize = chunking === "browser" ? FIRST_CHUNK_BYTES : chunking;
    for (let index = 0, offset = 0; offset < size; index++) {
      const { bytesRead } = await file.read(buffer, 0, Math.min(chunkSize, size - offset), offset);
      const bytes = buffer.subarray(0, bytesRead);
      result.requests += 1;
      if (cut?.index === index) {
        const cutAfter = Math.floor(bytes.length * cut.share);
        result.sentBytes += cutAfter;
        result.cutChunk = bytes.length;
        await patchAndCut(baseUrl, path, offset, bytes, cutAfter);
        const resumed = await head(baseUrl, path);
        result.lostPerCut.push(offset + cutAfter - resumed);
        result.resentBytes += Math.max(0, offset + cutAfter - resumed);
        offset = resumed;
        if (chunking === "browser") chunkSize = chunkSizeAfterFailure();
        continue;
      }
      result.sentBytes += bytes.length;
      const started = performance.now();
      const answer = await patch(baseUrl, path, offset, bytes);
      if (chunking === "browser") chunkSize = nextChunkSize(chunkSize, { bytes: answer.offset - offset, ms: performance.now() - started });
      offset = answer.offset;
      result.mediaUuid = answer.mediaUuid ?? result.mediaUuid;
    }
    return result;
  } finally {
    await file.close();
  }
}

/**
 * The floor under any upload endpoint here: a bare node:http server that appends each PATCH body
 * to a file as tus does (a POST makes the file), with no framework, checks or database. What tus
 * reaches next to it is what the endpoint itself costs; what it reaches next to a copy includes
 * the loopback connection and a second process.
 */
async function startBareReceiver(directory: string) {
  await fs.mkdir(directory, { recursive: true });
  const server = http.createServer(async (req, res) => {
    if (req.method === "POST") {
      const id = crypto.randomBytes(16).toString("hex");
      await fs.writeFile(path.join(directory, id), "");
      res.writeHead(201, { Location: `/bare/${id}` }).end();
      return;
    }
    const file = path.join(directory, path.basename(req.url ?? ""));
    const offset = Number(req.headers["upload-offset"]);
    const writer = createWriteStream(file, { flags: "r+", start: offset, highWaterMark: MB });
    await pipeline(req, writer);
    res.writeHead(204, { "Upload-Offset": String(offset + writer.bytesWritten) }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
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
  const server = await startBenchServer(root, cleanUps, {
    NODE_ENV: "test",
    // Measure receiving only: no transcoding competes for the CPU (the files are noise anyway).
    RUN_WORKER: "false",
  });

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
  const bareDir = path.join(root, "bare");
  const bare = await startBareReceiver(bareDir);
  cleanUps.push(bare.close);
  const upload = async (job: Omit<UploadJob, "baseUrl" | "metadata">, baseUrl = server.url) => {
    const reply = await send(client, { ...job, baseUrl, metadata: metadata(path.basename(job.source)) });
    // Finished uploads stay as originals; remove them so the disk holds only what the next run needs.
    for (const dir of [tusDir, bareDir]) {
      await fs.rm(dir, { recursive: true, force: true });
      await fs.mkdir(dir, { recursive: true });
    }
    return reply;
  };

  console.log(`Chorus upload bench — Node ${process.version}, ${os.cpus().length} CPUs, loopback, files in ${os.tmpdir()}\n`);

  // (a) Throughput: the best of THROUGHPUT_ROUNDS rounds, each timing every way once, after one
  // warm-up upload. Rounds rather than repeats of one way, so a busy moment slows all ways alike.
  const throughputFile = await makeFile(path.join(root, "200mb.bin"), THROUGHPUT_FILE_MB);
  const copy = path.join(root, "copy.bin");
  await upload({ source: throughputFile, chunking: 2 * MB });
  let [streamCopy, fileCopy] = [Infinity, Infinity];
  const uploads = new Map(CHUNKINGS.map((chunking) => [chunking, { tus: Infinity, bare: Infinity }]));
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    streamCopy = Math.min(streamCopy, await timed(() => pipeline(createReadStream(throughputFile), createWriteStream(copy))));
    fileCopy = Math.min(fileCopy, await timed(() => fs.copyFile(throughputFile, copy)));
    await fs.rm(copy);
    for (const [chunking, best] of uploads) {
      best.tus = Math.min(best.tus, (await upload({ source: throughputFile, chunking })).ms);
      best.bare = Math.min(best.bare, (await upload({ source: throughputFile, chunking }, bare.url)).ms);
    }
  }
  const rate = (ms: number) => THROUGHPUT_FILE_MB / (ms / 1000);
  console.log(`(a) Throughput, ${THROUGHPUT_FILE_MB} MB file, best of ${THROUGHPUT_ROUNDS}`);
  console.log(`    stream copy (read → write)         ${fmt(rate(streamCopy)).padStart(5)} MB/s`);
  console.log(`    fs.copyFile (kernel copy)          ${fmt(rate(fileCopy)).padStart(5)} MB/s`);
  for (const [chunking, best] of uploads) {
    const [tus, floor] = [rate(best.tus), rate(best.bare)];
    console.log(
      `    tus, ${label(chunking).padEnd(30)} ${fmt(tus).padStart(5)} MB/s   ` +
        `= ${(tus / rate(streamCopy)).toFixed(2)} × stream copy (target ≥ 0.80), ${(tus / rate(fileCopy)).toFixed(2)} × copyFile, ` +
        `${(tus / floor).toFixed(2)} × bare HTTP (${fmt(floor)} MB/s)`,
    );
  }
  await fs.rm(throughputFile);

  // (b) Memory: the server's RSS while a 500 MB upload arrives, over its idle RSS just before.
  const memoryFile = await makeFile(path.join(root, "500mb.bin"), MEMORY_FILE_MB);
  console.log(`\n(b) Server RSS during a ${MEMORY_FILE_MB} MB upload`);
  for (const chunking of CHUNKINGS) {
    const idle = await sampleRss(1000);
    const during = sampleRssUntil(upload({ source: memoryFile, chunking }));
    const { peak, value } = await during;
    const over = Math.max(0, peak - idle.peak);
    console.log(
      `    ${label(chunking)}: idle ${fmt(idle.peak / MB)} MB, peak ${fmt(peak / MB)} MB, ` +
        `+${fmt(over / MB)} MB over idle (target < 150 MB), ${fmt(MEMORY_FILE_MB / (value.ms / 1000))} MB/s`,
    );
  }
  await fs.rm(memoryFile);

  // (c) A connection dropped 60% into the fourth chunk.
  const cutFile = await makeFile(path.join(root, "64mb.bin"), CUT_FILE_MB);
  console.log(`\n(c) Bytes sent twice after a cut 60% into a chunk (${CUT_FILE_MB} MB file)`);
  for (const chunking of CHUNKINGS) {
    const { result } = await upload({ source: cutFile, chunking, cut: { index: 3, share: 0.6 } });
    const cutChunk = result.cutChunk!;
    console.log(
      `    ${label(chunking)}: cut after ${fmt((cutChunk * 0.6) / MB)} MB of a ${fmt(cutChunk / MB)} MB chunk, re-sent ${result.resentBytes} bytes ` +
        `(${fmt((100 * result.resentBytes) / cutChunk)}% of that chunk; target ≤ one chunk), ${result.requests} requests`,
    );
  }
}

function send(client: ChildProcess, job: UploadJob) {
  return new Promise<{ ms: number; result: Uploaded }>((resolve, reject) => {
    client.once("message", (reply: UploadReply) => (reply.ok ? resolve(reply) : reject(new Error(reply.error))));
    client.send(job);
  });
}

/**
 * A file of `mb` MB of random bytes (one random 16 MB block, repeated: nothing here compresses),
 * starting like an MP4 so the endpoint's first-bytes check lets it in.
 */
async function makeFile(file: string, mb: number) {
  const block = crypto.randomBytes(16 * MB);
  mp4LikeBytes(24).copy(block);
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
const label = (chunking: Chunking) =>
  chunking === "browser" ? `${FIRST_CHUNK_BYTES / MB}→${LARGEST_CHUNK_BYTES / MB} MB chunks (browser)` : `${chunking / MB} MB chunks`;

// Last, so every constant above is initialised before the top-level await runs.
if (process.argv[2] === "client") runClient();
else await main();
