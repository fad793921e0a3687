import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { LongestFirst } from "./tests/support/longest-first";

// The same aliases as tsconfig.json's `paths`.
const alias = { "~": path.resolve(__dirname, "app"), drizzle: path.resolve(__dirname, "drizzle") };
const TEST_WORKERS = Number(process.env.TEST_WORKERS ?? 3);
// Files another vitest of the same run takes (scripts/test.js: the lane of files that mostly wait).
const EXCLUDED = [...configDefaults.exclude, ...(process.env.TEST_EXCLUDE ?? "").split(",").filter(Boolean)];

export default defineConfig({
  resolve: { alias },
  test: {
    globals: true,
    // expect.poll's own default gives up after one second: on two cores shared by three test files,
    // a browser and ffmpeg, a page or a job can take longer than that to get there.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    // The app's server build (build/index.js, 1.4 MB, loaded by every file that starts a server) is
    // loaded by node as production loads it, not passed through vite's transform and module runner:
    // each such file spent ~0.5–1 s more CPU evaluating the transformed copy (docs/decisions/016).
    server: { deps: { external: [/\/build\/index\.js$/] } },
    // The longest files start first (tests/support/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    // One pool of processes for every project but unit, one test file at a time in each; each worker has
    // its own database, and each file its own ports, job queue and storage folder
    // (tests/support/worker-database.ts, test-file.ts, test-server.ts). Three workers on two shared
    // cores: the files wait on servers, jobs and browsers much of their time (docs/decisions/016).
    // TEST_WORKERS overrides (a bigger machine).
    pool: "forks",
    // A worker keeps the modules its files import from one file to the next (not isolated): each
    // file that starts a server spent 3–4 s of CPU importing the app, its build and the vendor SDKs
    // again, about a quarter of the whole run's CPU; the setup files run again before each file, and
    // every file closes what it starts (its servers, browsers, job queue). Every worker lives to the
    // end of the run (minForks = maxForks): tinypool ending an idle one while vitest still held it
    // failed the run with "Terminating worker thread". The unit project runs its files in threads
    // the same way (34 files: 14 s became 5 s), two at most.
    poolOptions: {
      forks: { maxForks: TEST_WORKERS, minForks: TEST_WORKERS, isolate: false },
      threads: { maxThreads: Math.min(TEST_WORKERS, 2), minThreads: 1, isolate: false },
    },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}", "app/**/*.test.{ts,tsx}"],
          environment: "node",
          pool: "threads",
          setupFiles: ["tests/support/fail-on-console-error.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "media",
          include: ["tests/media/**/*.test.ts"],
          environment: "node",
          setupFiles: ["tests/support/file-cpu.ts", "tests/support/fail-on-console-error.ts"],
          // Each test makes its media with ffmpeg and sharp, then transcodes it.
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: EXCLUDED,
          globalSetup: ["tests/support/global-database.ts"],
          setupFiles: ["tests/support/file-cpu.ts", "tests/support/worker-database.ts", "tests/support/fail-on-console-error.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          exclude: EXCLUDED,
          globalSetup: ["tests/support/global-database.ts"],
          // The server's console and the browser's: an error in either fails the test.
          setupFiles: [
            "tests/support/file-cpu.ts",
            "tests/support/worker-database.ts",
            "tests/support/fail-on-console-error.ts",
            "tests/support/fail-on-browser-console-error.ts",
          ],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
