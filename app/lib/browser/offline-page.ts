import { SERVICE_WORKER_PATH, SERVICE_WORKER_SCOPE } from "~/lib/offline-copy";

// Registers the service worker (public/sw.js) from a contributor's page, once the page has loaded,
// and asks it to keep this page and what it loaded, so the link opens again with no connection
// (docs/decisions/027). Loaded on its own after the page's load event: no first-visit script.

/** How long to wait for the worker to take charge of a first visit before asking it anyway. */
const CONTROL_WAIT_MS = 5000;

function controlled(container: ServiceWorkerContainer) {
  if (container.controller) return Promise.resolve();
  return new Promise<void>((resolve) => {
    container.addEventListener("controllerchange", () => resolve(), { once: true });
    setTimeout(resolve, CONTROL_WAIT_MS);
  });
}

/** The fingerprinted build files among `entries`, by address. */
const buildFiles = (entries: PerformanceEntryList) =>
  entries.map((entry) => entry.name).filter((name) => new URL(name).pathname.startsWith("/build/"));

/** What shows a person is using the page: a touch, a click, a key, a field taking focus. */
const USE_EVENTS = ["pointerdown", "keydown", "focusin"] as const;

/**
 * Runs `run` once, when the person first uses the page or leaves it (it is hidden: another tab, the
 * phone locked, the page closed). Not while a first visit sits idle: its JavaScript budget is for
 * what the page shows (bench/README.md, "Page weight").
 */
function whenUsedOrLeft(run: () => void) {
  const once = () => {
    for (const type of USE_EVENTS) document.removeEventListener(type, once, true);
    document.removeEventListener("visibilitychange", onHidden);
    run();
  };
  const onHidden = () => {
    if (document.visibilityState === "hidden") once();
  };
  for (const type of USE_EVENTS) document.addEventListener(type, once, { capture: true, passive: true });
  document.addEventListener("visibilitychange", onHidden);
}

/**
 * Registers the worker and asks it to keep this page and the build files it loaded. Once the person
 * uses the page or leaves it, fetches `warm` (what the page loads only when a file is picked) through
 * it, so a file picked or kept can be sent from the offline copy too. A failure is logged, never thrown: the page works as before.
 */
export async function keepPageOffline(warm: () => Promise<unknown>) {
  if (!("serviceWorker" in navigator) || !("caches" in window)) return;
  try {
    const version = (window as { __remixManifest?: { version?: string } }).__remixManifest?.version ?? "";
    const container = navigator.serviceWorker;
    await container.register(`${SERVICE_WORKER_PATH}?v=${encodeURIComponent(version)}`, { scope: SERVICE_WORKER_SCOPE });
    const registration = await container.ready;
    await controlled(container);
    const keep = (assets: string[]) =>
      (container.controller ?? registration.active)?.postMessage({ type: "keep-page", url: location.href, assets });
    keep(buildFiles(performance.getEntriesByType("resource")));
    // Files the page loads from now on (what a picked file brings) are named to the worker too: until
    // it is in charge of this page (a slow first visit), they do not pass through it to be kept.
    new PerformanceObserver((list) => {
      const later = buildFiles(list.getEntries());
      if (later.length) keep(later);
    }).observe({ type: "resource" });
    const warmThroughWorker = () => void warm().catch(() => undefined);
    whenUsedOrLeft(() => {
      if (container.controller) warmThroughWorker();
      else container.addEventListener("controllerchange", warmThroughWorker, { once: true });
    });
  } catch (error) {
    console.warn("This page could not be kept for use offline:", error);
  }
}
