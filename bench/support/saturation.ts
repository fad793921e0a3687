// A busy-day step's figures, printed, and judged: did a 95th percentile cross its limit, and which
// resource ran out (the web process's CPU, the worker's and ffmpeg's, the machine's cores, PostgreSQL's
// connections, or a queue lane's wait).
import os from "node:os";
import { JOBS } from "~/jobs/catalogue";
import type { LaneReading } from "./database-readings";
import type { Samples } from "./samples";

/**
 * The 95th percentiles a busy day must keep (docs/decisions/059-a-busy-day.md):
 * - a page within 1 s, a chunk's answer within 2 s (beyond it the browser halves its chunks and a
 *   phone's upload slows for everyone behind it);
 * - a contribution Ready within 2 minutes of its last byte: the contributor is still on the page;
 * - Publish to the recipient's page playing within 5 minutes: the organiser watches the progress bar
 *   of a video a few minutes long; longer, and they leave believing it broken.
 */
export const LIMITS: Record<string, number> = {
  page: 1_000,
  chunk: 2_000,
  "last byte → Ready": 120_000,
  "publish → playing": 300_000,
};

const MEDIA_LANES = ["media-small", "media-large", "media-process"];
const RENDER_LANES = ["render-prepare", "render-rungs", "render-run", "video-ladder"];
/** A lane whose jobs waited this long at the 95th percentile is where work piles up. */
const LANE_WAIT_SECONDS = 30;
/** One Node process runs its JavaScript on one core: near this, its own CPU is the limit. */
const ONE_CORE = 0.85;

export interface StepFigures {
  step: number;
  rate: number;
  wall: number;
  settled: boolean;
  loadBefore: string;
  loadAfter: string;
  samples: Samples;
  unfinished: { uploads: number; ready: number; publishes: number };
  lanes: LaneReading[];
  cpu: Map<string, { own: number; children: number }>;
  benchCpu: number;
  memory: Map<string, number>;
  connections: { open: number; active: number; max: number };
  contributedMinutes: number;
  publishedMinutes: number;
  arrivals: { photos: number; clips: number; choruses: number; readers: number };
}

const seconds = (ms: number | null) => (ms === null ? "—" : ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 1000).toFixed(2)} s`);
const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MB`;

/** Prints the step's figures and answers whether the bench stops here, and why. */
export function judgeStep(figures: StepFigures) {
  const { samples, wall, cpu } = figures;
  const cores = os.cpus().length;
  console.log(
    `Step ${figures.step}: ${figures.rate.toFixed(1)} contributors a minute (${figures.arrivals.photos} photos, ${figures.arrivals.clips} clips, ` +
      `${figures.arrivals.choruses} Choruses, ${figures.arrivals.readers} public page reads), ${wall.toFixed(0)} s; ` +
      `load average ${figures.loadBefore} → ${figures.loadAfter}`,
  );
  const failures = samples.failureCount();
  console.log(
    `  failures: ${failures}${[...samples.failures].map(([kind, { count, first }]) => `\n    ${kind} ×${count}: ${first}`).join("")}`,
  );
  for (const kind of samples.kinds().sort()) {
    const limit = LIMITS[kind];
    const p95 = samples.percentile(kind, 0.95);
    console.log(
      `  ${kind.padEnd(28)} n=${String(samples.count(kind)).padStart(4)}  p50 ${seconds(samples.percentile(kind, 0.5)).padStart(7)}  ` +
        `p95 ${seconds(p95).padStart(7)}${limit ? `  (limit ${seconds(limit)}${p95 !== null && p95 > limit ? ", CROSSED" : ""})` : ""}`,
    );
  }
  const { uploads, ready, publishes } = figures.unfinished;
  if (uploads + ready + publishes)
    console.log(`  unfinished after the drain: ${uploads} uploads, ${ready} not Ready, ${publishes} Choruses not published`);

  console.log("  queue waits by lane (due → started), jobs created in the step:");
  for (const lane of figures.lanes)
    console.log(
      `    ${lane.lane.padEnd(24)} ${String(lane.jobs).padStart(4)} jobs  wait p50 ${lane.waitP50.toFixed(1)} s, p95 ${lane.waitP95.toFixed(1)} s; ` +
        `ran ${lane.runSeconds.toFixed(0)} s${lane.waiting ? `; ${lane.waiting} still waiting (oldest ${lane.oldestWaiting.toFixed(0)} s)` : ""}`,
    );

  console.log(`  CPU over the step's ${wall.toFixed(0)} s (cores used = CPU s / wall s; ${cores} cores):`);
  for (const [role, used] of cpu) {
    const total = used.own + used.children;
    console.log(
      role === "PostgreSQL"
        ? `    ${role.padEnd(12)} ${total.toFixed(1)} s (${(total / wall).toFixed(2)} cores), its backends included`
        : `    ${role.padEnd(12)} node ${used.own.toFixed(1)} s (${(used.own / wall).toFixed(2)} cores), ` +
            `ffmpeg and other children ${used.children.toFixed(1)} s (${(used.children / wall).toFixed(2)} cores)`,
    );
  }
  console.log(
    `    bench        ${figures.benchCpu.toFixed(1)} s (${(figures.benchCpu / wall).toFixed(2)} cores: clients, phone links, proxy, S3 stand-in)`,
  );
  const app = [...cpu].filter(([role]) => role !== "PostgreSQL").reduce((sum, [, used]) => sum + used.own + used.children, 0);
  const ranIn = (names: string[]) =>
    figures.lanes.filter((lane) => names.includes(lane.lane)).reduce((sum, lane) => sum + lane.runSeconds, 0);
  const [mediaRun, renderRun] = [ranIn(MEDIA_LANES), ranIn(RENDER_LANES)];
  const mediaShare = mediaRun + renderRun ? mediaRun / (mediaRun + renderRun) : 1;
  console.log(
    `  app CPU ${app.toFixed(0)} s, apportioned by the lanes' run time (media ${(mediaShare * 100).toFixed(0)}%, render ${((1 - mediaShare) * 100).toFixed(0)}%): ` +
      `${figures.contributedMinutes ? ((app * mediaShare) / figures.contributedMinutes).toFixed(0) : "—"} CPU s per contributed minute ` +
      `(${figures.contributedMinutes.toFixed(1)} min), ${figures.publishedMinutes ? ((app * (1 - mediaShare)) / figures.publishedMinutes).toFixed(0) : "—"} CPU s per published minute ` +
      `(${figures.publishedMinutes.toFixed(1)} min)`,
  );
  console.log(
    `  peak memory: ${[...figures.memory].map(([role, rss]) => `${role} ${mb(rss)}`).join(", ")}${figures.memory.has("PostgreSQL") ? " (PostgreSQL's shared buffers counted once per backend)" : ""}`,
  );
  console.log(
    `  PostgreSQL connections: peak ${figures.connections.open} open, ${figures.connections.active} running a statement, of ${figures.connections.max}`,
  );

  const crossed = Object.entries(LIMITS).filter(([kind, limit]) => (samples.percentile(kind, 0.95) ?? 0) > limit);
  const stop = crossed.length > 0 || failures > 0 || uploads + ready + publishes > 0 || !figures.settled;
  if (stop) {
    const what = [
      ...crossed.map(([kind]) => `${kind} p95 over its limit`),
      ...(failures ? [`${failures} failures`] : []),
      ...(uploads + ready + publishes || !figures.settled ? ["work left unfinished"] : []),
    ];
    console.log(`\n  Saturated at step ${figures.step} (${figures.rate.toFixed(1)} contributors a minute): ${what.join("; ")}.`);
    for (const reason of saturatedResources(figures, cores)) console.log(`  → ${reason}`);
  }
  console.log("");
  return { stop };
}

/** What sizes a lane's slots in each worker: its setting (docs/deploy.md), or one job at a time. */
function slotsOf(lane: string) {
  const slots = lane in JOBS ? JOBS[lane as keyof typeof JOBS].slots : undefined;
  return slots ?? "one job at a time";
}

/** Which resources ran out in a step, the most telling first. */
function saturatedResources(figures: StepFigures, cores: number) {
  const reasons: string[] = [];
  const { wall, cpu } = figures;
  const cores_ = (seconds: number) => seconds / wall;
  for (const [role, used] of cpu) {
    if (role.startsWith("web") && cores_(used.own) >= ONE_CORE)
      reasons.push(`CPU of ${role}: its Node process used ${cores_(used.own).toFixed(2)} of the one core it can use`);
    if (role === "worker" && cores_(used.own) >= ONE_CORE)
      reasons.push(`CPU of the worker's Node process: ${cores_(used.own).toFixed(2)} cores`);
  }
  const ffmpeg = [...cpu].filter(([role]) => role !== "PostgreSQL").reduce((sum, [, used]) => sum + used.children, 0);
  const everything = [...cpu].reduce((sum, [, used]) => sum + used.own + used.children, 0) + figures.benchCpu;
  if (cores_(everything) >= 0.85 * cores)
    reasons.push(
      `the machine's cores: everything measured used ${cores_(everything).toFixed(2)} of ${cores} (ffmpeg ${cores_(ffmpeg).toFixed(2)}, ` +
        `PostgreSQL ${cores_((cpu.get("PostgreSQL")?.own ?? 0) + (cpu.get("PostgreSQL")?.children ?? 0)).toFixed(2)}, bench ${cores_(figures.benchCpu).toFixed(2)})`,
    );
  else if (Number(figures.loadAfter.split(" ")[0]) > cores * 1.5)
    reasons.push(
      `the machine: load average ${figures.loadAfter} on ${cores} cores while this bench used ${cores_(everything).toFixed(2)}: other work took the CPU`,
    );
  for (const lane of figures.lanes.filter((lane) => lane.waitP95 > LANE_WAIT_SECONDS || lane.oldestWaiting > LANE_WAIT_SECONDS))
    reasons.push(
      `queue wait in ${lane.lane}: p95 ${lane.waitP95.toFixed(0)} s${lane.waiting ? `, ${lane.waiting} not started (oldest ${lane.oldestWaiting.toFixed(0)} s)` : ""} — ` +
        `its slots were full (${slotsOf(lane.lane)} per worker)`,
    );
  const { open, active, max } = figures.connections;
  if (open >= 0.9 * max) reasons.push(`PostgreSQL connections: ${open} open of max_connections ${max}`);
  if (active >= 20) reasons.push(`PostgreSQL busy: ${active} statements running at once at the peak`);
  if (!reasons.length) reasons.push("no single resource at its limit: read the percentiles and the load average (a shared machine)");
  return reasons;
}
