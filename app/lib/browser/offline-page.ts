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

/**
 * Registers the worker, asks it to keep this page and the build files it loaded, then fetches
 * `warm` (what the page loads only when a file is picked) through it, so a file picked or kept can be
 * sent from the offline copy too. A failure is logged, never thrown: the page works as before.
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
    if (container.controller) await warm();
    else container.addEventListener("controllerchange", () => void warm().catch(() => undefined), { once: true });
  } catch (error) {
    console.warn("This page could not be kept for use offline:", error);
  }
}
