import fs from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

// Where a whole run's time goes: for each test file, when its worker began on it and when it was
// done, and what it spent before its first test (starting the worker process, importing the setup
// files and the file itself). vitest's JSON report has only the span from the first test's start
// to the last test's end, which leaves out the imports and the beforeAll/afterAll hooks (a server,
// a browser); scripts/test-durations.js reads this file instead when it is there.
// scripts/test.js names the output: TEST_TIMELINE.

/** One file as the timeline keeps it; times are milliseconds since the epoch, durations milliseconds. */
export interface TimelineEntry {
  file: string;
  project: string;
  /** When its worker began on it: the worker's start (`prepare`) and environment before it was queued. */
  began: number;
  /** When it was queued in its worker, just before its setup files and itself were imported. */
  queued: number;
  /** When its tests were collected: setup files and the file imported. */
  collected?: number;
  ended?: number;
  prepare: number;
  environment: number;
  setup: number;
  collect: number;
  /** Its tests and hooks. */
  run: number;
  state: string;
}

const root = path.resolve(__dirname, "../..");

export default class TimelineReporter implements Reporter {
  private readonly queued = new Map<string, number>();
  private readonly collected = new Map<string, number>();
  private readonly ended = new Map<string, number>();
  private started = Date.now();

  onTestRunStart() {
    this.started = Date.now();
  }

  onTestModuleQueued(module: TestModule) {
    this.queued.set(module.id, Date.now());
  }

  onTestModuleCollected(module: TestModule) {
    this.collected.set(module.id, Date.now());
  }

  onTestModuleEnd(module: TestModule) {
    this.ended.set(module.id, Date.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    // This process's own CPU beside the test files' (tests/support/file-cpu.ts): module transforms,
    // the pool, the reports, and the unit files, which run in its threads.
    const cpuLog = process.env.TEST_CPU_LOG;
    if (cpuLog) {
      const { user, system } = process.cpuUsage();
      const line = { file: "(vitest's own process: transforms, reports, the unit tests)", own: (user + system) / 1e6, children: 0 };
      fs.appendFileSync(cpuLog, `${JSON.stringify(line)}\n`);
    }
    const out = process.env.TEST_TIMELINE;
    if (!out) return;
    const files: TimelineEntry[] = modules.map((module) => {
      const d = module.diagnostic();
      const queued = this.queued.get(module.id) ?? this.started;
      return {
        file: path.relative(root, module.moduleId),
        project: module.project.name,
        began: Math.round(queued - d.prepareDuration - d.environmentSetupDuration),
        queued,
        collected: this.collected.get(module.id),
        ended: this.ended.get(module.id),
        prepare: Math.round(d.prepareDuration),
        environment: Math.round(d.environmentSetupDuration),
        setup: Math.round(d.setupDuration),
        collect: Math.round(d.collectDuration),
        run: Math.round(d.duration),
        state: module.state(),
      };
    });
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify({ started: this.started, ended: Date.now(), files }, null, 1)}\n`);
  }
}
