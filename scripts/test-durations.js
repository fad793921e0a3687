// Writes how long each test file took in the last run to tests/support/file-durations.json, which
// vitest.config.ts reads to start the longest files first on a checkout that has not run the suite
// yet (CI's fresh clone): a long file started last keeps one worker busy after the other has
// finished. Run it after a full `npm test` when files have been added or have become much slower or
// faster, and commit the result.
//
// A file's time is the whole time its worker spent on it, from the worker's start to the file's end
// (the timeline `npm test` writes beside each report: tests/support/timeline-reporter.ts); vitest's
// JSON report, used when there is no timeline, leaves out the imports and the beforeAll/afterAll
// hooks, which are most of a short file that starts a server and a browser.
//
// `--timeline` prints where the run's time went instead: how long before the first file began, how
// long the lane ran fewer files than it has workers, and what the files spent before their tests.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// A whole run writes two reports: the throttled-link browser files run in a lane of their own.
const lanes = ["vitest-report", "vitest-report-slow-links"].map((name) => ({
  name,
  report: readJson(path.join(root, "test-results", `${name}.json`)),
  timeline: readJson(path.join(root, "test-results", `${name}-timeline.json`)),
}));

function readJsonLines(file) {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** What the files cost the cores (tests/support/file-cpu.ts): by project, and the costliest files. */
function printCpu(files) {
  if (files.length === 0) return;
  const total = (file) => file.own + file.children;
  const byProject = new Map();
  for (const file of files) {
    // A test file by its project's folder; the database server and vitest's own process by name.
    const project = file.file.startsWith("(") ? file.file : file.file.split("/")[1];
    const sums = byProject.get(project) ?? { files: 0, own: 0, children: 0 };
    sums.files += 1;
    sums.own += file.own;
    sums.children += file.children;
    byProject.set(project, sums);
  }
  const all = files.reduce((sum, file) => sum + total(file), 0);
  console.log(
    `CPU time of the test run: ${all.toFixed(0)} s (the files' own processes and the children they waited for, the database, vitest)`,
  );
  for (const [project, sums] of byProject) {
    console.log(
      `  ${project}: ${sums.files} files, ${(sums.own + sums.children).toFixed(0)} s (own ${sums.own.toFixed(0)} s, children ${sums.children.toFixed(0)} s)`,
    );
  }
  console.log("  the costliest:");
  for (const file of files
    .filter((f) => !f.file.startsWith("("))
    .sort((a, b) => total(b) - total(a))
    .slice(0, 25)) {
    console.log(
      `    ${total(file).toFixed(1).padStart(6)} s  ${file.file} (own ${file.own.toFixed(1)} s, children ${file.children.toFixed(1)} s)`,
    );
  }
}

function readJson(file) {
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null;
}

if (process.argv.includes("--timeline")) {
  for (const lane of lanes.filter((l) => l.timeline)) printTimeline(lane.name, lane.timeline);
  printCpu(lanes.flatMap((lane) => readJsonLines(path.join(root, "test-results", `${lane.name}-cpu.jsonl`))));
} else {
  writeDurations();
}

function writeDurations() {
  const fromLane = (lane) =>
    lane.timeline
      ? lane.timeline.files.filter((file) => file.ended).map((file) => [file.file, (file.ended - file.began) / 1000])
      : (lane.report?.testResults ?? []).map((file) => [path.relative(root, file.name), (file.endTime - file.startTime) / 1000]);
  const seconds = Object.fromEntries(
    lanes
      .flatMap(fromLane)
      .map(([file, s]) => [file, Math.round(s * 10) / 10])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  const out = path.join(root, "tests", "support", "file-durations.json");
  fs.writeFileSync(out, `${JSON.stringify(seconds, null, 2)}\n`);
  console.log(`${Object.keys(seconds).length} files' durations written to ${path.relative(root, out)}.`);
}

function printTimeline(name, { started, ended, files }) {
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const done = files.filter((file) => file.ended);
  const first = Math.min(...done.map((file) => file.began));
  const last = Math.max(...done.map((file) => file.ended));
  console.log(`${name}: ${s(ended - started)} from vitest's start to its end`);
  console.log(`  before the first file began (config, global setup): ${s(first - started)}`);
  console.log(`  after the last file ended (teardown, reports): ${s(ended - last)}`);
  // How many files were in a worker at each moment, from the files' own begin and end times.
  const edges = done.flatMap((file) => [
    [file.began, 1],
    [file.ended, -1],
  ]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const timeAt = new Map();
  let running = 0;
  let at = first;
  for (const [time, change] of edges) {
    timeAt.set(running, (timeAt.get(running) ?? 0) + (time - at));
    running += change;
    at = time;
  }
  const spread = [...timeAt.entries()].sort(([a], [b]) => a - b).map(([n, ms]) => `${n}: ${s(ms)}`);
  console.log(`  files at once, between the first's start and the last's end: ${spread.join(", ")}`);
  const byProject = new Map();
  for (const file of done) {
    const sums = byProject.get(file.project) ?? { files: 0, prepare: 0, setup: 0, collect: 0, run: 0, wall: 0 };
    sums.files += 1;
    sums.prepare += file.prepare + file.environment;
    sums.setup += file.setup;
    sums.collect += file.collect;
    sums.run += file.run;
    sums.wall += file.ended - file.began;
    byProject.set(file.project, sums);
  }
  for (const [project, sums] of byProject) {
    console.log(
      `  ${project}: ${sums.files} files, ${s(sums.wall)} in all: worker start ${s(sums.prepare)}, setup files ${s(sums.setup)}, ` +
        `import ${s(sums.collect)}, tests and hooks ${s(sums.run)}`,
    );
  }
  const latest = [...done].sort((a, b) => b.ended - a.ended).slice(0, 4);
  console.log(
    `  the last to end: ${latest.map((file) => `${file.file} (${s(file.began - started)} → ${s(file.ended - started)})`).join(", ")}`,
  );
}
