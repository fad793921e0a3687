// Lighthouse benchmark: node --import tsx bench/lighthouse.bench.ts [--runs=N]   (after `npx remix build`)
//
// Starts the real server (production mode, compression on) in this process on a throw-away
// embedded PostgreSQL, and runs Lighthouse's mobile audit (its default: a phone's screen, a slow 4G
// link and a four times slower CPU, simulated) in the system Chromium on the pages a newcomer meets:
// home, log in, a contributor's and a recipient's page. Prints each page's four scores
// (performance, accessibility, best practices, SEO), the performance metrics behind the first, and
// every audit that did not pass. With --runs=N each page is audited N times and every run printed:
// the performance score moves with the machine's load.
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { firstVisitPages, startBenchServer, withBenchFolder } from "./bench-server";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"];

const runsArgument = process.argv.find((argument) => argument.startsWith("--runs="));
const RUNS = Math.max(1, Number(runsArgument?.slice("--runs=".length) ?? 1) || 1);

async function bench(root: string, cleanUps: Array<() => Promise<unknown>>) {
  const server = await startBenchServer(root, cleanUps, { NODE_ENV: "production", RUN_WORKER: "false" });

  const { createUser } = await import("../tests/support/accounts");
  const { createTestEvent } = await import("../tests/support/events");
  const { CHROMIUM_ARGS, chromiumPath } = await import("../tests/support/browser");
  if (!chromiumPath) throw new Error("no Chromium (apt-get install -y chromium, or set CHROMIUM_PATH)");
  const event = await createTestEvent(await createUser());
  // The system browser, never one downloaded: the same flags as the end-to-end tests, headless.
  const chrome = await launch({ chromePath: chromiumPath, chromeFlags: ["--headless=new", ...CHROMIUM_ARGS] });
  cleanUps.push(async () => chrome.kill());

  const pages = firstVisitPages(event);
  const rows: string[] = [];
  for (const [name, address] of pages) {
    for (let run = 1; run <= RUNS; run += 1) {
      const lhr = await audit(`${server.url}${address}`, chrome.port);
      if (lhr.runtimeError) throw new Error(`Lighthouse on ${address}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const scores = CATEGORIES.map((category) => Math.round((lhr.categories[category]?.score ?? 0) * 100));
      const metrics = METRICS.map((id) => `${id.replace(/-/g, " ")} ${lhr.audits[id]?.displayValue ?? "?"}`).join(", ");
      rows.push(`${name.padEnd(12)} | ${scores.map((score) => String(score).padStart(3)).join(" | ")}`);
      console.log(`${name}${RUNS > 1 ? ` (run ${run})` : ""}: ${scores.join(" / ")} — ${metrics}`);
      // Every scored audit under full marks, by category: what keeps a score under 100.
      for (const category of CATEGORIES) {
        for (const reference of lhr.categories[category]?.auditRefs ?? []) {
          const audit = lhr.audits[reference.id];
          if (!audit || audit.score === null || audit.score >= 1) continue;
          if (audit.scoreDisplayMode === "informative" || audit.scoreDisplayMode === "notApplicable" || audit.scoreDisplayMode === "manual")
            continue;
          const weight = reference.weight ? ` (weight ${reference.weight})` : "";
          console.log(
            `  ${category}: ${audit.id} ${Math.round(audit.score * 100)}${weight} — ${audit.title}${audit.displayValue ? `: ${audit.displayValue}` : ""}`,
          );
          for (const item of itemsOf(audit.details).slice(0, 3)) console.log(`    ${item}`);
        }
      }
    }
  }
  console.log(`\nLighthouse mobile (simulated slow 4G, 4× CPU slowdown), ${RUNS} run(s) a page`);
  console.log("page         | perf | a11y | best | seo");
  for (const row of rows) console.log(row);
}

/** Times Lighthouse may run again on a page whose trace it failed to record. */
const TRACE_RETRIES = 2;

/**
 * Lighthouse's report on one page. On a busy machine it sometimes misses the start of the page
 * load in its trace (NO_NAVSTART) and asks to be run again: it is, up to TRACE_RETRIES times.
 */
async function audit(url: string, port: number) {
  for (let attempt = 0; ; attempt += 1) {
    const result = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES] });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    if (result.lhr.runtimeError?.code !== "NO_NAVSTART" || attempt >= TRACE_RETRIES) return result.lhr;
    console.log(`  (${url}: Lighthouse lost the start of its trace, run again)`);
  }
}

/** What an audit names (addresses, elements), to know what to fix. */
function itemsOf(details: unknown): string[] {
  const items = (details as { items?: unknown[] } | undefined)?.items;
  if (!Array.isArray(items)) return [];
  return items
    .map((item) => {
      const { url, node } = item as { url?: unknown; node?: { snippet?: unknown } };
      if (typeof url === "string") return url.replace(/^https?:\/\/[^/]+/, "");
      if (typeof node?.snippet === "string") return node.snippet;
      return "";
    })
    .filter(Boolean);
}

await withBenchFolder(bench);
