// Page weight benchmark: node --import tsx bench/page-weight.bench.ts   (after `npx remix build`)
//
// Starts the real server (production mode, compression on) in this process on a throw-away
// embedded PostgreSQL, opens the pages a newcomer meets in Chromium at 375 × 812, and prints for
// each the compressed bytes of its HTML and of its JavaScript: what loaded before the page's load
// event (what a first visit waits for), and everything loaded once the page has sat idle for a
// while (error reporting, realtime, anything fetched after load). The target: contributor
// and recipient pages ≤ 110 KB of compressed JavaScript on first visit. `--files` lists every script.
import http from "node:http";
import type { Page, Response } from "playwright-core";
import { firstVisitPages, startBenchServer, withBenchFolder } from "./bench-server";

const KB = 1024;
const IDLE_MS = 3000;
const TARGET_KB = 110;

const LIST_FILES = process.argv.includes("--files");

interface Weight {
  page: string;
  html: number;
  scriptsAtLoad: number;
  jsAtLoad: number;
  scriptsIdle: number;
  jsIdle: number;
}

async function bench(root: string, cleanUps: Array<() => Promise<unknown>>) {
  const server = await startBenchServer(root, cleanUps, { NODE_ENV: "production", RUN_WORKER: "false" });

  const { createUser } = await import("../tests/support/accounts");
  const { createTestEvent } = await import("../tests/support/events");
  const { launchChromium, PHONE } = await import("../tests/support/browser");
  const event = await createTestEvent(await createUser());
  const browser = await launchChromium();
  cleanUps.push(() => browser.close());

  const pages = firstVisitPages(event);
  const weights: Weight[] = [];
  for (const [name, address] of pages) {
    const context = await browser.newContext({ viewport: PHONE, baseURL: server.url });
    const page = await context.newPage();
    weights.push({ page: name, ...(await weigh(page, address)) });
    await context.close();
  }

  const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
  console.log(`Compressed bytes at 375 × 812, first visit (target: contributor and recipient JS at load ≤ ${TARGET_KB} KB)`);
  console.log("page         | HTML     | JS at load (files)  | JS after idle (files)");
  for (const w of weights) {
    console.log(
      `${w.page.padEnd(12)} | ${kb(w.html).padStart(8)} | ${kb(w.jsAtLoad).padStart(9)} (${String(w.scriptsAtLoad).padStart(2)})      | ${kb(w.jsIdle).padStart(9)} (${String(w.scriptsIdle).padStart(2)})`,
    );
  }
}

/** The compressed size of each response as it came over the wire, by kind, up to load and after idle. */
async function weigh(page: Page, address: string) {
  const responses: Array<{ response: Response; atLoad: boolean }> = [];
  let loaded = false;
  page.on("response", (response) => responses.push({ response, atLoad: !loaded }));
  await page.goto(address, { waitUntil: "load" });
  loaded = true;
  await page.waitForTimeout(IDLE_MS);
  let html = 0;
  let [scriptsAtLoad, jsAtLoad, scriptsIdle, jsIdle] = [0, 0, 0, 0];
  for (const { response, atLoad } of responses) {
    const type = response.request().resourceType();
    // A script the service worker answered came to it over the network (its cache is empty on a
    // first visit), which Chromium does not report to the page: it is counted as the server sends it.
    const viaWorker = response.fromServiceWorker();
    const bytes = viaWorker ? await compressedSize(response.url()) : (await response.request().sizes()).responseBodySize;
    if (type === "document") html += bytes;
    if (type !== "script") continue;
    scriptsIdle += 1;
    jsIdle += bytes;
    if (atLoad) [scriptsAtLoad, jsAtLoad] = [scriptsAtLoad + 1, jsAtLoad + bytes];
    if (LIST_FILES)
      console.log(
        `  ${address} ${atLoad ? "load" : "idle"} ${(bytes / KB).toFixed(1).padStart(6)} KB ${new URL(response.url()).pathname}${viaWorker ? " (through the service worker)" : ""}`,
      );
  }
  return { html, scriptsAtLoad, jsAtLoad, scriptsIdle, jsIdle };
}

/** The bytes of `url` as the server sends them to a browser that takes gzip (as Chromium asks over HTTP). */
function compressedSize(url: string) {
  return new Promise<number>((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip, deflate" } }, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => (bytes += chunk.length));
        res.on("end", () => resolve(bytes));
      })
      .on("error", reject);
  });
}

await withBenchFolder(bench);
