// Organiser benchmark: nice -n 10 node --import tsx bench/organiser.bench.ts
//   (after `npx remix build`, and after bench/render.bench.ts has made its sources once)
//
// The organiser's render, timed as a person meets it. The real server runs in this process as
// `npm start` runs it (production, its job workers, render-ahead and the HLS ladder on) on a
// throw-away embedded PostgreSQL and data folder, and everything goes through HTTP:
//   - an organiser buys the premium finish through the local payment service (their next render is 1080p);
//   - 20 clips and 10 photos (the render bench's phone-like sources) arrive one every 6 s, each
//     uploaded through tus from the contributor's link with a name and a message, until all are Ready;
//   - the organiser chooses another theme and music, and presses Publish 30 s later;
//   - the recipient's link is opened in Chromium once the video is published, and play pressed.
// Printed: Publish → the recipient's page playing (with when the render finished and the video was
// published, and what the render reused and made); the same for a second Publish of the same
// arrangement once everything went idle (only the join left); beside them a plain libx264 veryfast
// encode of the same length at 1080p, before and after, and the ratios to their mean; the load
// average at start and end; the peak memory of this process and its ffmpeg children (not Chromium's,
// nor the embedded PostgreSQL's: a deployment's database is elsewhere).
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import type { RenderPlan } from "~/render/plan";
import type { TestClient } from "../tests/support/http-client";
import { MESSAGES, NAMES, startBenchServer, treeRss, withBenchFolder, x264Baseline } from "./bench-server";

const SOURCES = path.join(os.tmpdir(), "chorus-render-bench", "sources");
const ARRIVAL_SECONDS = 6;
const PUBLISH_AFTER_CHANGE_SECONDS = 30;
const TARGET_AFTER_CHANGE = 0.5;
const TARGET_NOTHING_CHANGED = 0.25;
const LEFT_OUT_OF_MEMORY = /chrom|postgres/i;
const FULL_HD = { width: 1920, height: 1080, fps: 30 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(", ");

/** The render bench's sources in the order it plays them: a photo after every second clip. */
async function sources() {
  const clipDir = (await fs.readdir(SOURCES)).find((name) => name.startsWith("reference-phone-"));
  if (!clipDir) throw new Error(`No clips in ${SOURCES}: run bench/render.bench.ts once first.`);
  const clips = Array.from({ length: 20 }, (_, i) => path.join(SOURCES, clipDir, `clip-${i}-${i}.rendition.mp4`));
  const photos = Array.from({ length: 10 }, (_, i) => path.join(SOURCES, "photos", `photo-${i}.rendition.jpg`));
  for (const file of [...clips, ...photos]) await fs.access(file);
  return clips.flatMap((clip, i) => (i % 2 === 1 ? [clip, photos[Math.floor(i / 2)]!] : [clip]));
}

async function bench(root: string, cleanUps: Array<() => Promise<unknown>>) {
  const files = await sources();
  console.log(`Organiser benchmark — ${os.cpus().length} cores, load average at start ${load()}`);
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await treeRss(process.pid, LEFT_OUT_OF_MEMORY).catch(() => 0));
      await sleep(500);
    }
  })();
  cleanUps.push(async () => {
    sampling = false;
    await sampler;
  });

  const server = await startBenchServer(root, cleanUps, { NODE_ENV: "production", RENDER_AHEAD: "true" });
  const { db } = await import("~/lib/db.server");
  const { findEventById } = await import("~/models/event.server");
  const { listMediaOfEvent } = await import("~/models/media.server");
  const { findThemeBySlug } = await import("~/models/theme.server");
  const { findTrackBySlug } = await import("~/models/track.server");
  const { nextRender, preparedPieces } = await import("~/services/render/next-render.server");
  const { loggedInUser } = await import("../tests/support/accounts");
  const { createTestEvent } = await import("../tests/support/events");
  const { buyPremiumFinish } = await import("../tests/support/payments");
  const { launchChromium } = await import("../tests/support/browser");

  const { client: organiser, user } = await loggedInUser(server.url);
  const created = await createTestEvent(user, { occasion: "birthday" });
  await buyPremiumFinish(organiser, created);
  const event = (await findEventById(db(), created.id))!;
  const arrange = `/e/${event.uuid}/arrange`;

  // ——— The yardstick, before: as long as the video these files make ———
  const length = await videoLength(files);
  const baselineDir = path.join(root, "baseline");
  await fs.mkdir(baselineDir);
  const before = await x264Baseline(FULL_HD, length, baselineDir);

  // ——— Contributions arrive ———
  const arrivalsStarted = performance.now();
  await Promise.all(
    files.map(async (file, i) => {
      await sleep(i * ARRIVAL_SECONDS * 1000);
      await contribute(server.url, event.uuid, file, NAMES[i % NAMES.length]!, MESSAGES[i % MESSAGES.length]!);
    }),
  );
  const uploaded = (performance.now() - arrivalsStarted) / 1000;
  await until(async () => {
    const items = await listMediaOfEvent(db(), event.id, { purpose: "contribution" });
    const failed = items.find((item) => item.status === "failed");
    if (failed) throw new Error(`Contribution ${failed.id} failed to process.`);
    return items.length === files.length && items.every((item) => item.status === "ready");
  });
  const ready = (performance.now() - arrivalsStarted) / 1000;
  const { plan } = await nextRender(event);
  console.log(
    `${files.length} contributions arrived one every ${ARRIVAL_SECONDS} s: last uploaded at ${uploaded.toFixed(0)} s, all Ready at ${ready.toFixed(0)} s`,
  );
  console.log(`The next render: ${plan.profile.resolution}, ${plan.segments.length} scenes, ${plan.durationSeconds.toFixed(1)} s`);
  // How far preparation kept up with the arrivals: what the theme change finds made.
  console.log(`  when all are Ready (and the theme changes): ${madeOf(await preparedPieces(plan))}`);
  if (plan.profile.resolution !== "1080p") throw new Error("The premium finish did not make the next render 1080p.");

  if (Math.abs(plan.durationSeconds - length) > 0.5)
    console.log(`  (the baselines encode ${length.toFixed(1)} s, as planned before the uploads)`);

  // ——— The theme and the music change; Publish 30 s later ———
  const [theme, track] = await Promise.all([
    findThemeBySlug(db(), "classic-ivory"),
    until(async () => {
      const found = await findTrackBySlug(db(), "slow-light");
      return found?.status === "ready" ? found : null;
    }),
  ]);
  await expectRedirect(organiser.form(arrange, { intent: "theme-choose", themeId: theme!.id }), "choosing a theme");
  await expectRedirect(organiser.form(arrange, { intent: "music-choose", trackId: track.id }), "choosing music");
  await sleep(PUBLISH_AFTER_CHANGE_SECONDS * 1000);

  const browser = await launchChromium();
  cleanUps.push(() => browser.close());
  const publish = async (label: string) => {
    const { plan: now } = await nextRender(event);
    const ahead = await preparedPieces(now);
    console.log(`\n${label}: at Publish ${madeOf(ahead)}`);
    return publishAndWatch(organiser, browser, server.url, event);
  };
  const afterChange = await publish(`Theme and music changed ${PUBLISH_AFTER_CHANGE_SECONDS} s before Publish`);

  // ——— Publish again once everything went idle: nothing changed since the last preparation ———
  const { findPublishedMedia } = await import("~/models/published-media.server");
  const laddered = async (versionId: string) => !!(await findPublishedMedia(db(), versionId))?.ladder;
  await until(async () => {
    const { plan: now } = await nextRender(event);
    const ahead = await preparedPieces(now);
    return ahead.reusable === ahead.pieces && (await laddered(afterChange.versionId));
  });
  await sleep(5_000);
  const unchanged = await publish("Nothing changed since the last preparation");

  // ——— The yardstick, after: once the second version's ladder is made too ———
  await until(() => laddered(unchanged.versionId));
  console.log("");
  const after = await x264Baseline(FULL_HD, length, baselineDir);
  const mean = (before.seconds + after.seconds) / 2;
  console.log(`  baseline: mean ${mean.toFixed(1)} s`);
  const ratio = (seconds: number) => (seconds / mean).toFixed(2);
  console.log(`  → after the theme and music change: ${ratio(afterChange.playing)} × baseline (target ≤ ${TARGET_AFTER_CHANGE})`);
  console.log(`  → nothing changed: ${ratio(unchanged.playing)} × baseline (target ≤ ${TARGET_NOTHING_CHANGED})`);
  sampling = false;
  await sampler;
  console.log(`  → peak memory of the server and its ffmpeg jobs: ${(peak / 1024 ** 3).toFixed(2)} GB`);
  console.log(`Load average at end ${load()}`);
}

/** How long the video of `files` is, by the app's own plan (every theme but a collage one times it alike). */
async function videoLength(files: string[]) {
  const { db } = await import("~/lib/db.server");
  const { probeMedia } = await import("~/media/probe.server");
  const { findThemeBySlug } = await import("~/models/theme.server");
  const { planRender } = await import("~/render/plan");
  const { planTheme } = await import("~/services/render/render-plan.server");
  const media = await Promise.all(
    files.map(async (file, i) => {
      const photo = file.endsWith(".jpg");
      return {
        id: String(i),
        kind: photo ? ("photo" as const) : ("video" as const),
        status: "ready" as const,
        renditionKey: file,
        durationSeconds: photo ? null : (await probeMedia(file)).duration,
        trimStart: 0,
        trimEnd: null,
        caption: "",
        contributorName: "",
        hidden: false,
        archived: false,
        position: i,
        hasAudio: false,
      };
    }),
  );
  const card = { heading: "", subheading: "" };
  const theme = planTheme((await findThemeBySlug(db(), "classic-ivory"))!);
  return planRender({ intro: card, outro: card, theme, media, track: null, resolution: "1080p" }).durationSeconds;
}

/** A contributor opens the link and uploads one file through tus, with their name and message. */
async function contribute(baseUrl: string, eventUuid: string, file: string, name: string, message: string) {
  const { TestClient } = await import("../tests/support/http-client");
  const { create, patch } = await import("../tests/support/tus-client");
  const contributor = new TestClient(baseUrl);
  const page = await contributor.raw("GET", `/e/${eventUuid}`);
  if (page.status !== 200) throw new Error(`The contributor's link answered ${page.status}.`);
  await page.arrayBuffer();
  const bytes = await fs.readFile(file);
  const upload = await create(baseUrl, bytes.length, {
    eventUuid,
    filename: path.basename(file),
    filetype: file.endsWith(".jpg") ? "image/jpeg" : "video/mp4",
    contributorName: name,
    caption: message,
    purpose: "contribution",
    uploadToken: crypto.randomBytes(24).toString("base64url"),
  });
  const CHUNK = 8 * 1024 * 1024;
  for (let offset = 0; offset < bytes.length;)
    offset = (await patch(baseUrl, upload, offset, bytes.subarray(offset, offset + CHUNK))).offset;
}

/**
 * Presses Publish as the arrange page's button does (render, published when done), then opens
 * the recipient's link once the new version is published and presses play. Seconds from Publish.
 */
async function publishAndWatch(
  organiser: TestClient,
  browser: Browser,
  baseURL: string,
  event: { id: string; uuid: string; privateKey: string },
) {
  const { db } = await import("~/lib/db.server");
  const { listRenderJobsOfEvent } = await import("~/models/render-job.server");
  const { listPublishedVersions } = await import("~/models/published-media.server");
  const { piecesOf } = await import("~/render/plan");
  const { DESKTOP } = await import("../tests/support/browser");
  type Job = Awaited<ReturnType<typeof listRenderJobsOfEvent>>[number];

  const previous = (await listRenderJobsOfEvent(db(), event.id, 1))[0]?.id;
  const pressed = Date.now();
  const since = (at: Date | number) => ((typeof at === "number" ? at : at.getTime()) - pressed) / 1000;
  await expectRedirect(
    organiser.form(`/e/${event.uuid}/arrange`, { intent: "render-start", resolution: "1080p", publish: "on" }),
    "Publish",
  );
  let rendered: number | null = null;
  const job: Job = await until(
    async () => {
      const [latest] = await listRenderJobsOfEvent(db(), event.id, 1);
      if (!latest || latest.id === previous) return null;
      if (latest.status === "failed" || latest.status === "cancelled") throw new Error(`The render ${latest.status}: ${latest.error}`);
      if (latest.outputKey && rendered === null) rendered = since(Date.now());
      return latest.status === "succeeded" ? latest : null;
    },
    { interval: 100 },
  );
  const version = (await listPublishedVersions(db(), event.id)).find((v) => v.renderJobId === job.id);
  if (!version) throw new Error("The render succeeded without publishing.");

  const context = await browser.newContext({ baseURL, viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto(`/e/${event.uuid}?privateKey=${event.privateKey}`, { waitUntil: "load" });
  const video = page.locator(".event-video video");
  await video.evaluate((v: HTMLVideoElement) =>
    v.addEventListener("playing", () => ((window as unknown as { benchPlaying: boolean }).benchPlaying = true), { once: true }),
  );
  await video.click();
  await page.waitForFunction(() => (window as unknown as { benchPlaying?: boolean }).benchPlaying === true, undefined, {
    timeout: 120_000,
  });
  const playing = since(Date.now());
  await context.close();

  const plan = job.plan as RenderPlan;
  console.log(
    `  Publish → video rendered ${rendered!.toFixed(1)} s → published ${since(version.createdAt).toFixed(1)} s → recipient's page playing ${playing.toFixed(1)} s`,
  );
  console.log(
    `  the render reused ${job.piecesReused} of its ${piecesOf(plan).length} pieces and made ${job.piecesRendered}, then joined them`,
  );
  return { playing, versionId: version.id };
}

/** "N of M pieces made", and what of the rest is left. */
function madeOf({
  reusable,
  pieces,
  remaining,
}: {
  reusable: number;
  pieces: number;
  remaining: { scenes: number; crossfades: number; soundtrack: boolean };
}) {
  const left =
    reusable < pieces
      ? ` (left: ${remaining.scenes} scenes, ${remaining.crossfades} crossfades${remaining.soundtrack ? ", the soundtrack" : ""})`
      : "";
  return `${reusable} of ${pieces} pieces made${left}`;
}

async function expectRedirect(reply: Promise<Response>, what: string) {
  const response = await reply;
  if (response.status !== 302) throw new Error(`${what} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
}

/** Polls `check` until it answers something truthy (it may throw to give up). */
async function until<T>(check: () => Promise<T | null | false | undefined>, { interval = 500, timeout = 60 * 60_000 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("Gave up waiting.");
    await sleep(interval);
  }
}

await withBenchFolder(bench);
// The embedded PostgreSQL's and the job queue's handles would keep the process alive.
process.exit(0);
