// Writes how long each test file took in the last run (vitest's JSON report, written by
// `npm test`) to tests/support/file-durations.json, which vitest.config.ts reads to start the longest
// files first on a checkout that has not run the suite yet (CI's fresh clone): a long file started
// last keeps one worker busy after the other has finished. Run it after a full `npm test` when files
// have been added or have become much slower or faster, and commit the result.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// A whole run writes two reports: the throttled-link browser files run in a lane of their own.
const reports = ["vitest-report.json", "vitest-report-slow-links.json"]
  .map((name) => path.join(root, "test-results", name))
  .filter((file) => fs.existsSync(file))
  .map((file) => JSON.parse(fs.readFileSync(file, "utf8")));
const seconds = Object.fromEntries(
  reports
    .flatMap((report) => report.testResults)
    .map((file) => [path.relative(root, file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
    .sort(([a], [b]) => a.localeCompare(b)),
);
const out = path.join(root, "tests", "support", "file-durations.json");
fs.writeFileSync(out, `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`${Object.keys(seconds).length} files' durations written to ${path.relative(root, out)}.`);
