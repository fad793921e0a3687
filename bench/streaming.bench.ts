// Streaming benchmark: node --import tsx bench/streaming.bench.ts [--seconds=180]   (after `npx remix build`)
//
// Starts the real server (production mode, jobs worked in the same process) on a throw-away
// embedded PostgreSQL, publishes a 1080p video of `--seconds` as a render makes it (H.264 High,
// a key frame every 2 s, AAC, grain in every frame so every rung spends what it may), times its
// HLS ladder job, then plays the recipient's page in Chromium throttled to a phone's link (1.6 Mbit/s
// down, 150 ms) on a phone's screen, once streaming (the page as it is) and once as the MP4 alone
// (as without JavaScript, and as before the ladder). Printed for each: time from play to the first frame,
// stalls (`waiting` events after it) and seconds spent stalled, how far it played, and which rungs
// it fetched. The aim: first frame ≤ 2 s and no stall once playing.
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { startBenchServer, withBenchFolder } from "./bench-server";

const SECONDS = Number(process.argv.find((a) => a.startsWith("--seconds="))?.slice(10) ?? 180);
const LINK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };
/** The MP4 alone stalls from the start on this link: a minute of it says enough. */
const MP4_WATCH_SECONDS = 60;

async function bench(root: string, cleanUps: Array<() => Promise<unknown>>) {
  const server = await startBenchServer(root, cleanUps, { NODE_ENV: "production", RUN_WORKER: "true", JOB_POLL_SECONDS: "0.5" });
  const { createUser } = await import("../tests/support/accounts");
  const { createTestEvent } = await import("../tests/support/events");
  const { launchChromium, PHONE } = await import("../tests/support/browser");
  const { runFfmpeg } = await import("~/media/run.server");
  const { db } = await import("~/lib/db.server");
  const { findPublishedMedia, publishVersion } = await import("~/models/published-media.server");
  const { storage } = await import("~/services/media/storage.server");
  const { queueVideoLadder } = await import("~/services/render/video-ladder.server");

  const event = await createTestEvent(await createUser());
  const file = path.join(root, "published.mp4");
  const encodeStarted = performance.now();
  await runFfmpeg([
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=1920x1080:rate=30:duration=${SECONDS},noise=alls=12:allf=t`,
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`,
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-b:v",
    "8M",
    "-maxrate",
    "10M",
    "-bufsize",
    "20M",
    "-profile:v",
    "high",
    "-pix_fmt",
    "yuv420p",
    "-g",
    "60",
    "-sc_threshold",
    "0",
    "-c:a",
    "aac",
    "-b:a",
    "192k",
    "-movflags",
    "+faststart",
    file,
  ]);
  const encodeSeconds = (performance.now() - encodeStarted) / 1000;
  const key = `events/${event.id}/renders/bench/video.mp4`;
  const stored = await storage().putFile(key, file, "video/mp4");
  const { version } = await publishVersion(
    db(),
    {
      eventId: event.id,
      renderJobId: null,
      videoKey: key,
      posterKey: null,
      durationSeconds: SECONDS,
      width: 1920,
      height: 1080,
      sizeBytes: stored.size,
      publishedById: null,
    },
    queueVideoLadder,
  );
  let ladder = null;
  while (!ladder) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    ladder = (await findPublishedMedia(db(), version.id))?.ladder ?? null;
  }
  console.log(
    `A ${SECONDS} s 1080p video of ${(stored.size / 1e6).toFixed(1)} MB (${((stored.size * 8) / SECONDS / 1e6).toFixed(1)} Mbit/s)`,
  );
  console.log(`  encoding it once (x264 veryfast, as a reference): ${encodeSeconds.toFixed(1)} s`);
  console.log(`  its HLS ladder job (probe, one ffmpeg run, storing the files): ${ladder.seconds} s`);
  for (const rung of ladder.rungs) {
    console.log(
      `    ${rung.name.padEnd(6)} peak ${(rung.bandwidth / 1e6).toFixed(2)} Mbit/s, average ${(rung.averageBandwidth / 1e6).toFixed(2)} Mbit/s`,
    );
  }

  const browser = await launchChromium();
  cleanUps.push(() => browser.close());
  const address = `/e/${event.uuid}?privateKey=${event.privateKey}`;
  const phone = { viewport: PHONE, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
  const streamed = await watch(browser, server.url, address, phone, SECONDS, { streaming: true });
  const mp4 = await watch(browser, server.url, address, phone, MP4_WATCH_SECONDS, { streaming: false });
  console.log(`\nOn ${((LINK.downloadThroughput * 8) / 1e6).toFixed(1)} Mbit/s with ${LINK.latency} ms, a phone screen (375 × 812 at 3×):`);
  console.log("player            | first frame | stalls | stalled | played / watched | rungs fetched");
  for (const [name, r] of [
    ["HLS ladder", streamed],
    ["MP4 alone", mp4],
  ] as const) {
    console.log(
      `${name.padEnd(17)} | ${r.firstFrameMs === null ? "never".padStart(9) : `${(r.firstFrameMs / 1000).toFixed(2)} s`.padStart(9)}   | ${String(r.stalls).padStart(6)} | ${`${r.stalledSeconds.toFixed(1)} s`.padStart(7)} | ${`${r.played.toFixed(0)} / ${r.watched.toFixed(0)} s`.padStart(16)} | ${r.rungs}`,
    );
  }
}

interface Watched {
  firstFrameMs: number | null;
  stalls: number;
  stalledSeconds: number;
  played: number;
  watched: number;
  rungs: string;
}

/**
 * Presses play and watches for `seconds` (or to the end): what the person would have seen. Without
 * `streaming`, the page's streaming code is kept from loading, so the <video> plays its MP4 as it
 * does without JavaScript (and did before the ladder), while the bench can still count its stalls.
 */
async function watch(
  browser: Browser,
  baseURL: string,
  address: string,
  options: Parameters<Browser["newContext"]>[0],
  seconds: number,
  { streaming }: { streaming: boolean },
) {
  const context = await browser.newContext({ ...options, baseURL });
  const page: Page = await context.newPage();
  if (!streaming) await page.route("**/build/_shared/video-stream-*.js", (route) => route.abort());
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", LINK);
  const rungs = new Map<string, number>();
  page.on("request", (request) => {
    const rung = /\/hls\/(\w+)_\d+\.m4s/.exec(request.url())?.[1];
    if (rung) rungs.set(rung, (rungs.get(rung) ?? 0) + 1);
  });
  await page.goto(address, { waitUntil: "load" });
  const video = page.locator(".event-video video");
  if (streaming) {
    await page.waitForFunction(() => document.querySelector<HTMLVideoElement>(".event-video video")?.dataset.stream === "mp4", undefined, {
      timeout: 60_000,
    });
  }
  await page.waitForTimeout(1000);
  const started = Date.now();
  // Counted by the page's clock; `waiting` before the first frame is the start, not a stall.
  await video.evaluate((v: HTMLVideoElement) => {
    const s = {
      pressedAt: null as number | null,
      firstFrameAt: null as number | null,
      stalls: 0,
      stalledMs: 0,
      since: null as number | null,
    };
    (window as unknown as { streamStats: typeof s }).streamStats = s;
    v.addEventListener("play", () => (s.pressedAt ??= performance.now()));
    v.addEventListener("timeupdate", () => {
      if (v.currentTime > 0 && s.firstFrameAt === null) s.firstFrameAt = performance.now();
    });
    v.addEventListener("waiting", () => {
      if (s.firstFrameAt === null || s.since !== null) return;
      s.stalls += 1;
      s.since = performance.now();
    });
    v.addEventListener("playing", () => {
      if (s.since === null) return;
      s.stalledMs += performance.now() - s.since;
      s.since = null;
    });
  });
  await video.click();
  const deadline = started + seconds * 1000 + 10_000;
  while (Date.now() < deadline) {
    await page.waitForTimeout(1000);
    if (await video.evaluate((v: HTMLVideoElement) => v.ended)) break;
  }
  const played = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  const stats = await page.evaluate(() => (window as unknown as { streamStats?: Record<string, number | null> }).streamStats ?? null);
  await context.close();
  const result: Watched = {
    firstFrameMs: stats?.firstFrameAt != null && stats.pressedAt != null ? stats.firstFrameAt - stats.pressedAt : null,
    stalls: Number(stats?.stalls ?? 0),
    stalledSeconds: Number(stats?.stalledMs ?? 0) / 1000,
    played,
    watched: (Date.now() - started) / 1000,
    rungs: [...rungs].map(([name, n]) => `${name}×${n}`).join(" ") || "—",
  };
  return result;
}

withBenchFolder(bench).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
