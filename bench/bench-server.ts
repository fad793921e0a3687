// What every benchmark starts with: the real server in this process, on a throw-away embedded
// PostgreSQL and data folder under `root`, with `settings` on top. Each step that must be undone is
// pushed onto `cleanUps` (run in reverse when the bench ends).
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ffmpegEnvironment, ffmpegPath } from "~/media/ffmpeg-paths.server";

const run = promisify(execFile);

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

/** The value of `--name=value` on the bench's command line, if given. */
export const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);

/** The load average over 1, 5 and 15 minutes, as a bench prints it beside its figures. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");

/** The process id of the PostgreSQL server startBenchDatabase started under `root`, for its CPU and memory. */
export async function benchPostgresPid(root: string) {
  return Number((await fs.readFile(path.join(root, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);
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

// ——— Measuring: wall time and the peak RSS of this process and every child ———

/**
 * The resident memory of a process and all its descendants (ffmpeg children too), in bytes;
 * `without`: leaves out processes whose command matches, with theirs (a browser the bench drives).
 * Read from /proc, walking down from `pid`: a `ps` of every process, every 200 ms, took about a tenth
 * of a core from what was measured.
 */
export async function treeRss(pid: number, without?: RegExp): Promise<number> {
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const current = stack.pop()!;
    const found = await processMemory(current);
    if (!found || (without && current !== pid && without.test(found.command))) continue;
    total += found.rss;
    stack.push(...found.children);
  }
  return total;
}

/** A process's resident memory in bytes, its command name and its children's ids; null once it has ended. */
async function processMemory(pid: number) {
  try {
    const status = await fs.readFile(`/proc/${pid}/status`, "utf8");
    // A process forks from any of its threads: each lists its own children.
    const threads = await fs.readdir(`/proc/${pid}/task`);
    const children = await Promise.all(threads.map((tid) => fs.readFile(`/proc/${pid}/task/${tid}/children`, "utf8").catch(() => "")));
    return {
      command: /^Name:\s*(.*)$/m.exec(status)?.[1] ?? "",
      rss: Number(/^VmRSS:\s*(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024,
      children: children.flatMap((list) => list.trim().split(/\s+/).filter(Boolean).map(Number)),
    };
  } catch {
    return null;
  }
}

/**
 * Runs `work` and prints its wall time and the peak memory of this process tree meanwhile (and the
 * stages' finishing times, when its result has `finishedAt`).
 */
export async function measure<T>(label: string, work: () => Promise<T>) {
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await treeRss(process.pid).catch(() => 0));
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  const stages = (result as { finishedAt?: Record<string, number> } | null)?.finishedAt;
  const breakdown = stages
    ? `   (${Object.entries(stages)
        .map(([stage, s]) => `${stage} ${s.toFixed(1)}`)
        .join(", ")})`
    : "";
  console.log(`  ${label.padEnd(34)} ${seconds.toFixed(1).padStart(7)} s   peak ${(peak / 1024 ** 3).toFixed(2)} GB${breakdown}`);
  return { seconds, peak, result };
}

/**
 * The render benches' yardstick: one plain libx264 veryfast encode of `seconds` of synthetic
 * video at the frame size and rate given, written into `dir`.
 */
export function x264Baseline(frame: { width: number; height: number; fps: number }, seconds: number, dir: string) {
  const { width, height, fps } = frame;
  return measure(`baseline (x264 veryfast, ${seconds.toFixed(1)} s)`, () =>
    run(
      ffmpegPath(),
      [
        ...["-hide_banner", "-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=size=${width}x${height}:rate=${fps}:duration=${seconds}`],
        ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p", path.join(dir, "baseline.mp4")],
      ],
      // With the allocator settings the app's own ffmpeg runs get: the yardstick is the best plain encode.
      { maxBuffer: 1 << 24, env: ffmpegEnvironment() },
    ),
  );
}

/** Contributors' names and messages, as the benches give them to items in turn. */
export const NAMES = ["Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo"];
export const MESSAGES = [
  "Happy birthday! So glad we got to share this year.",
  "Remember the lake? Best day ever.",
  "Love you lots",
  "Cheers to many more adventures together!",
];
