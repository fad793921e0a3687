// A busy day: node --import tsx bench/busy-day.bench.ts [--topology=single|split|two-web|s3]
//   [--seconds=90] [--rate=6] [--step=1.5] [--steps=6] [--drain=300] [--quick]   (after `npx remix build`)
//
// Plays a busy day against the app run as a deployment runs it (bench/support/topology.ts), on a
// throw-away embedded PostgreSQL, all at once: contributors uploading photos and clips over phone links
// (tus, the browser's chunks, resumes after a dropped connection), organisers changing the theme and
// publishing once their Chorus's contributions are Ready, recipients opening the event page and
// streaming the HLS video, and readers opening public pages (bench/support/busy-day-people.ts).
//
// Step by step: contributors arrive at `--rate` a minute for `--seconds`, then the step's work drains
// (at most DRAIN_SECONDS); the next step multiplies the rate by `--step`. Printed for each step, with
// the load average: failures, the 50th/95th percentile of every kind of answer, queue waits by lane,
// CPU by process (and per contributed and per published minute), peak memory, PostgreSQL connections.
// It stops at the first step whose 95th percentile crosses a limit (LIMITS), or that leaves work
// unfinished or fails anything, and says which resource saturated. `--quick`: one small step (~2 min).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { benchPostgresPid, loadAverage, option, startBenchDatabase, withBenchFolder } from "./bench-server";
import { type BenchChorus, type Contribution, contribute, openPage, publishChorus, watchStream } from "./support/busy-day-people";
import { laneReadings, maxConnections, sampleConnections } from "./support/database-readings";
import { type Counted, cpuBetween, readCpu, sampleMemory } from "./support/process-usage";
import { Samples } from "./support/samples";
import { judgeStep, LIMITS, type StepFigures } from "./support/saturation";
import { startTopology, TOPOLOGIES, type Topology } from "./support/topology";

const QUICK = process.argv.includes("--quick");
const TOPOLOGY = (option("topology") ?? "single") as Topology;
if (!TOPOLOGIES.includes(TOPOLOGY)) throw new Error(`--topology is one of ${TOPOLOGIES.join(", ")}`);
const SECONDS = Number(option("seconds") ?? (QUICK ? 60 : 90));
const FIRST_RATE = Number(option("rate") ?? (QUICK ? 8 : 6));
const STEP = Number(option("step") ?? 1.5);
const STEPS = QUICK ? 1 : Number(option("steps") ?? 6);
/**
 * The longest a step's work may take to finish after its last arrival (what is left then is
 * unfinished): the publish limit, so a full run can see it crossed; a quick run only proves the bench.
 */
const DRAIN_SECONDS = Number(option("drain") ?? (QUICK ? 90 : 300));

/** Contributions each Chorus of the bench receives before its organiser publishes. */
const PER_CHORUS = 4;
/** Recipients who stream each published video. */
const RECIPIENTS = 3;
/** Readers of public pages a second, at the first step's rate (they grow with it). */
const READERS_PER_SECOND = 1;
/** A 4G upload: 8 Mbit/s, 60 ms; one contributor in four is on a train whose link drops every 4 MB. */
const LINK = { kbitPerSecond: 8000, roundTripMs: 60 };
const TRAIN = { ...LINK, resetEveryBytes: 4 * 1024 * 1024 };
const CLIP_SECONDS = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function bench(root: string, cleanUps: Array<() => Promise<unknown>>) {
  console.log(`Chorus busy-day bench — Node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAverage()}`);
  const settings = {
    NODE_ENV: "production",
    SESSION_SECRET: "a busy-day bench's session secret, the same on every web process",
    // Behind the bench's proxy (and as clients come from many addresses): rate limits by X-Forwarded-For.
    TRUST_PROXY: "true",
  };
  await startBenchDatabase(root, cleanUps, settings);
  const { createPaidTestEvent } = await import("../tests/support/events");
  const { loggedInUser } = await import("../tests/support/accounts");
  const { db } = await import("~/lib/db.server");
  const { env } = await import("~/lib/env.server");
  const { findThemeBySlug } = await import("~/models/theme.server");
  const { listPublishedVersions } = await import("~/models/published-media.server");

  const { photo, clip } = await phoneFiles(path.join(root, "files"));

  const app = await startTopology(TOPOLOGY, settings, cleanUps);
  // The built-in themes are stored by the app's processes as they start.
  const themeIds = await Promise.all(
    ["classic-ivory", "golden-hour", "midnight"].map(async (slug) => (await findThemeBySlug(db(), slug))!.id),
  );
  const counted: Counted[] = [...app.processes, { role: "PostgreSQL", pid: await benchPostgresPid(root) }];
  const memory = sampleMemory(() => counted);
  const connections = sampleConnections();
  cleanUps.push(memory.stop, connections.stop);
  const maxOpen = await maxConnections();
  console.log(`Topology: ${app.describe}; PostgreSQL max_connections ${maxOpen}`);
  console.log(
    `Each step: contributors arrive for ${SECONDS} s (${PER_CHORUS} to a Chorus, photos and ${CLIP_SECONDS} s clips in turn, ` +
      `${LINK.kbitPerSecond / 1000} Mbit/s links, one in four dropping every 4 MB), then up to ${DRAIN_SECONDS} s to finish; ` +
      `${RECIPIENTS} recipients stream each published video; the rate ×${STEP} a step.`,
  );
  console.log(
    `Limits (95th percentile): ${Object.entries(LIMITS)
      .map(([kind, ms]) => `${kind} ≤ ${ms / 1000} s`)
      .join(", ")}\n`,
  );

  const choruses: BenchChorus[] = [];
  for (let step = 1, rate = FIRST_RATE; step <= STEPS; step++, rate *= STEP) {
    const samples = new Samples();
    const arrivals = Math.max(1, Math.round((rate * SECONDS) / 60));
    const fresh: BenchChorus[] = [];
    for (let i = 0; i < Math.ceil(arrivals / PER_CHORUS); i++) {
      const { client, user } = await loggedInUser(app.url);
      // Paid for: before payment only its organiser sees the video (decision 045), not its recipient.
      const event = await createPaidTestEvent(user);
      const expected = Math.min(PER_CHORUS, arrivals - i * PER_CHORUS);
      fresh.push({ id: event.id, uuid: event.uuid, privateKey: event.privateKey, organiser: client, uploaded: new Map(), expected });
    }
    choruses.push(...fresh);
    const loadBefore = loadAverage();
    memory.take();
    connections.take();
    const cpuBefore = await readCpu(counted);
    const benchCpuBefore = process.cpuUsage();
    const started = new Date();
    const windowEnds = Date.now() + SECONDS * 1000;
    const giveUpAt = windowEnds + DRAIN_SECONDS * 1000;

    // Contributors, evenly spread over the window; each Chorus's organiser publishes once all of its are Ready.
    const ready = new Map<string, "ready" | "failed">();
    const contributions: Array<Promise<void>> = [];
    const published: Array<Promise<void>> = [];
    let photos = 0;
    let clips = 0;
    for (const [index, chorus] of fresh.entries()) {
      published.push(
        (async () => {
          while (Date.now() < giveUpAt) {
            const done = [...chorus.uploaded.keys()].filter((uuid) => ready.has(uuid)).length;
            if (chorus.uploaded.size === chorus.expected && done === chorus.expected) break;
            await sleep(1000);
          }
          if (Date.now() >= giveUpAt) return;
          const master = await publishChorus(samples, app.url, chorus, themeIds[index % themeIds.length]!, giveUpAt);
          if (master) await Promise.all(Array.from({ length: RECIPIENTS }, () => watchStream(samples, app.url, chorus, master)));
        })(),
      );
    }
    for (let i = 0; i < arrivals; i++) {
      const chorus = fresh[Math.floor(i / PER_CHORUS)]!;
      const contribution: Contribution = i % 2 === 0 ? { file: photo, kind: "photo" } : { file: clip, kind: "clip" };
      if (contribution.kind === "photo") photos += 1;
      else clips += 1;
      contributions.push(
        sleep((i * SECONDS * 1000) / arrivals).then(() => contribute(samples, app.url, chorus, contribution, i % 4 === 3 ? TRAIN : LINK)),
      );
    }
    // Readers of public pages, at a rate that grows with the step's.
    const readers = (async () => {
      const perSecond = (READERS_PER_SECOND * rate) / FIRST_RATE;
      const reads: Array<Promise<unknown>> = [];
      const pages = ["/", "/auth/login"];
      for (let n = 0; Date.now() < windowEnds; n++) {
        const chorus = choruses[n % choruses.length]!;
        const [name, address] =
          n % 3 === 2 ? ["contributor", `/e/${chorus.uuid}`] : [pages[n % 2] === "/" ? "home" : "log in", pages[n % 2]!];
        reads.push(openPage(samples, app.url, name, address));
        await sleep(1000 / perSecond);
      }
      await Promise.all(reads);
    })();
    // Last byte → Ready, read from the database each second.
    const watching = (async () => {
      const { inArray } = await import("drizzle-orm");
      const { media } = await import("drizzle/schema");
      while (Date.now() < giveUpAt) {
        const waiting = fresh.flatMap((chorus) => [...chorus.uploaded].filter(([uuid]) => !ready.has(uuid)));
        if (waiting.length) {
          const rows = await db()
            .select({ uuid: media.mediaUuid, status: media.status })
            .from(media)
            .where(
              inArray(
                media.mediaUuid,
                waiting.map(([uuid]) => uuid),
              ),
            );
          const lastByte = new Map(waiting);
          for (const row of rows) {
            if (row.status === "ready") samples.add("last byte → Ready", Date.now() - lastByte.get(row.uuid)!);
            else if (row.status === "failed") samples.fail("processing", new Error(`media ${row.uuid} failed to process`));
            else continue;
            ready.set(row.uuid, row.status);
          }
        }
        const uploadsOver = contributions.length === arrivals && Date.now() > windowEnds;
        if (uploadsOver && fresh.every((chorus) => chorus.uploaded.size === chorus.expected) && waiting.length === 0) return;
        await sleep(1000);
      }
    })();

    await readers;
    const settled = await Promise.race([
      Promise.all([...contributions, ...published, watching]).then(() => true),
      sleep(Math.max(0, giveUpAt - Date.now())).then(() => false),
    ]);
    // What did not finish by the end of the drain counts at the time it had waited by then.
    const unfinished = {
      uploads: fresh.reduce((sum, chorus) => sum + chorus.expected - chorus.uploaded.size, 0),
      ready: fresh.flatMap((chorus) => [...chorus.uploaded]).filter(([uuid]) => !ready.has(uuid)),
    };
    for (const [, lastByte] of unfinished.ready) samples.add("last byte → Ready", Date.now() - lastByte);
    const wall = (Date.now() - started.getTime()) / 1000;
    const cpu = cpuBetween(cpuBefore, await readCpu(counted));
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const lanes = await laneReadings(env().JOB_QUEUE_SCHEMA, started);
    const versions = (await Promise.all(fresh.map((chorus) => listPublishedVersions(db(), chorus.id)))).flat();
    const figures: StepFigures = {
      step,
      rate,
      wall,
      settled,
      loadBefore,
      loadAfter: loadAverage(),
      samples,
      unfinished: { uploads: unfinished.uploads, ready: unfinished.ready.length, publishes: fresh.length - versions.length },
      lanes,
      cpu,
      benchCpu: (benchCpu.user + benchCpu.system) / 1e6,
      memory: memory.take(),
      connections: { ...connections.take(), max: maxOpen },
      contributedMinutes: (clips * CLIP_SECONDS + photos * env().RENDER_PHOTO_SECONDS) / 60,
      publishedMinutes: versions.reduce((sum, version) => sum + Number(version.durationSeconds ?? 0), 0) / 60,
      arrivals: { photos, clips, choruses: fresh.length, readers: samples.count("page: home") + samples.count("page: log in") },
    };
    const verdict = judgeStep(figures);
    if (verdict.stop) break;
  }
}

/**
 * What a phone sends: a 12-megapixel photo of noise (a few MB, as a phone's JPEG is) and an 8 s 720p
 * clip of a moving picture with grain at 6 Mbit/s: larger than the test fixtures, as a phone's are.
 */
async function phoneFiles(folder: string) {
  const { default: sharp } = await import("sharp");
  const { runFfmpeg } = await import("~/media/run.server");
  await fs.mkdir(folder);
  const photo = path.join(folder, "photo.jpg");
  await sharp({
    create: { width: 4032, height: 3024, channels: 3, background: "#3a7bd5", noise: { type: "gaussian", mean: 120, sigma: 25 } },
  })
    .jpeg({ quality: 85 })
    .toFile(photo);
  const clip = path.join(folder, "clip.mp4");
  const grain = `testsrc2=size=1280x720:rate=30:duration=${CLIP_SECONDS},noise=alls=12:allf=t`;
  await runFfmpeg(
    [
      "-hide_banner",
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      grain,
      "-f",
      "lavfi",
      "-i",
      `sine=frequency=440:sample_rate=44100:duration=${CLIP_SECONDS}`,
    ]
      .concat(["-c:v", "libx264", "-preset", "ultrafast", "-b:v", "6M", "-maxrate", "6M", "-bufsize", "6M", "-pix_fmt", "yuv420p"])
      .concat(["-c:a", "aac", "-shortest", clip]),
  );
  return { photo, clip };
}

await withBenchFolder(bench);
// The embedded PostgreSQL's and the job queue's handles would keep the process alive.
process.exit(0);
