import fs from "node:fs";
import path from "node:path";
import { afterAll, expect } from "vitest";
import { parseProcStat } from "./proc-stat";

// Setup file of the media, integration and e2e projects: what a test file cost the machine's cores.
// A worker process runs its files one after another (vitest.config.ts) and this file is run again
// before each: from here to the file's end, the process's own CPU time and that of every child it
// waited for (ffmpeg, Chromium and its renderers, servers and workers started as processes) are the
// file's (a child left running by an earlier file would count here, once it ends). Written as one
// JSON line per file to TEST_CPU_LOG (scripts/test.js names it beside the timeline); `node
// scripts/test-durations.js --timeline` lists the files that cost the most. On two shared cores a
// pass's wall-clock time follows its CPU time, not the files' durations, which include their waits.

const round = (seconds: number) => Math.round(seconds * 100) / 100;

/** This process's own CPU seconds, and its waited-for children's. */
function cpuSeconds(): { own: number; children: number } | null {
  try {
    const { own, ended } = parseProcStat(fs.readFileSync("/proc/self/stat", "utf8"));
    return { own, children: ended };
  } catch {
    // Not Linux: nothing to write.
    return null;
  }
}

const out = process.env.TEST_CPU_LOG;
const before = cpuSeconds();
if (out && before) {
  // Registered before the file's own hooks, so it runs after them: the file's browser and servers are closed.
  afterAll(() => {
    const cpu = cpuSeconds();
    const file = expect.getState().testPath;
    if (!cpu || !file) return;
    const spent = { own: round(cpu.own - before.own), children: round(cpu.children - before.children) };
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.appendFileSync(out, `${JSON.stringify({ file: path.relative(process.cwd(), file), ...spent })}\n`);
  });
}
