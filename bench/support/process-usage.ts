// What a group of processes has used, read from /proc: CPU seconds (their own and their children's,
// ffmpeg's included, ended or running) and resident memory. Cheap enough to sample every second.
import fs from "node:fs/promises";
import { parseProcStat } from "../../tests/support/proc-stat";
import { treeRss } from "../bench-server";

interface ProcessTimes {
  /** The process's own user + system seconds. */
  own: number;
  /** User + system seconds of its children that ended and were waited for. */
  ended: number;
  command: string;
  children: number[];
}

async function timesOf(pid: number): Promise<ProcessTimes | null> {
  try {
    const { command, own, ended } = parseProcStat(await fs.readFile(`/proc/${pid}/stat`, "utf8"));
    const threads = await fs.readdir(`/proc/${pid}/task`);
    const children = await Promise.all(threads.map((tid) => fs.readFile(`/proc/${pid}/task/${tid}/children`, "utf8").catch(() => "")));
    return {
      own,
      ended,
      command,
      children: children.flatMap((list) => list.trim().split(/\s+/).filter(Boolean).map(Number)),
    };
  } catch {
    return null;
  }
}

/**
 * CPU seconds of a process and everything under it so far, split into the process itself and its
 * children (ffmpeg, ffprobe: ended ones through the kernel's count for the parent, running ones read
 * directly). A child that ends between two readings moves from one count to the other, never lost.
 */
export async function treeCpu(pid: number) {
  const root = await timesOf(pid);
  if (!root) return { own: 0, children: 0 };
  let children = root.ended;
  const stack = [...root.children];
  while (stack.length) {
    const found = await timesOf(stack.pop()!);
    if (!found) continue;
    children += found.own + found.ended;
    stack.push(...found.children);
  }
  return { own: root.own, children };
}

/** A named group of processes whose use is counted together (a web process, a worker, PostgreSQL). */
export interface Counted {
  role: string;
  pid: number;
}

export type CpuReading = Map<string, { own: number; children: number }>;

export async function readCpu(processes: Counted[]): Promise<CpuReading> {
  const reading: CpuReading = new Map();
  for (const { role, pid } of processes) {
    const { own, children } = await treeCpu(pid);
    const sum = reading.get(role) ?? { own: 0, children: 0 };
    reading.set(role, { own: sum.own + own, children: sum.children + children });
  }
  return reading;
}

/** CPU seconds spent between two readings, by role. */
export function cpuBetween(before: CpuReading, after: CpuReading) {
  return new Map(
    [...after].map(([role, now]) => {
      const then = before.get(role) ?? { own: 0, children: 0 };
      return [role, { own: now.own - then.own, children: now.children - then.children }];
    }),
  );
}

/** Samples the resident memory of each role's processes (with their children) until stopped: the peaks. */
export function sampleMemory(processes: () => Counted[], everyMs = 1000) {
  const peaks = new Map<string, number>();
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      const now = new Map<string, number>();
      for (const { role, pid } of processes()) now.set(role, (now.get(role) ?? 0) + (await treeRss(pid).catch(() => 0)));
      for (const [role, rss] of now) peaks.set(role, Math.max(peaks.get(role) ?? 0, rss));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    /** The peaks since the last call, then starts counting afresh. */
    take() {
      const taken = new Map(peaks);
      peaks.clear();
      return taken;
    },
    async stop() {
      sampling = false;
      await loop;
    },
  };
}
