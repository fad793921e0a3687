// The contributor page's service worker (docs/decisions/027): a contributor who opened their link once
// can open it again with no connection, see what is still to send, and have it go when the link
// returns. It keeps two things only: contributor pages the server marked as fit to keep, and the
// fingerprinted files under /build/. Everything else (API answers, other pages, uploads) goes past it.
//
// Registered by app/lib/browser/offline-page.ts as /sw.js?v=<build version> with the scope /e/: a new
// deploy is a new script address, so the browser installs a new worker, whose activation deletes the
// caches of the old one.

const VERSION = new URL(self.location.href).searchParams.get("v") || "unversioned";
const PAGES = `chorus-pages-${VERSION}`;
const ASSETS = `chorus-assets-${VERSION}`;
/** Set by the server on a contributor page that holds nothing private to a log-in and sets no cookie. */
const KEEP_HEADER = "Chorus-Offline-Copy";
const CONTRIBUTOR_PAGE = /^\/e\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/?$/i;
/** How long a page waits for the network before the kept copy is shown instead, on a link that hangs. */
const SLOW_NETWORK_MS = 6000;

self.addEventListener("install", () => {
  void self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("chorus-") && name !== PAGES && name !== ASSETS) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && CONTRIBUTOR_PAGE.test(url.pathname)) event.respondWith(contributorPage(event));
  else if (url.pathname.startsWith("/build/")) event.respondWith(buildAsset(request));
});

self.addEventListener("message", (event) => {
  const data = event.data;
  if (data && data.type === "keep-page" && typeof data.url === "string") {
    event.waitUntil(keepPage(data.url, Array.isArray(data.assets) ? data.assets : []).catch(() => undefined));
  }
});

/**
 * The network's answer first; the kept copy when there is no network, or when it has not answered in
 * SLOW_NETWORK_MS (the answer, when it comes, still refreshes the kept copy for next time).
 */
async function contributorPage(event) {
  const href = event.request.url;
  const network = fetch(event.request).then((response) => {
    // Kept beside the page's own reading of it, which is not held up for it.
    event.waitUntil(remember(href, response.clone()).catch(() => undefined));
    return response;
  });
  event.waitUntil(network.catch(() => undefined));
  const kept = await (await caches.open(PAGES)).match(href);
  if (!kept) return network;
  try {
    return await Promise.race([network, new Promise((resolve) => setTimeout(() => resolve(offlineCopy(kept)), SLOW_NETWORK_MS))]);
  } catch {
    return offlineCopy(kept);
  }
}

/**
 * Keeps a page the server marked; forgets the kept copy of an address that now answers with another
 * page (the viewer logged in) or says it is gone. A server in trouble (5xx) leaves the copy as it is.
 */
async function remember(href, response) {
  const pages = await caches.open(PAGES);
  if (response.ok && response.headers.get(KEEP_HEADER) === "contributor") {
    await pages.put(href, response);
    return true;
  }
  if (response.ok || response.status === 404 || response.status === 410) await pages.delete(href);
  return false;
}

/** The kept page, marked so that it says it is the copy kept on this phone. */
async function offlineCopy(kept) {
  const html = (await kept.text()).replace("<html", '<html data-offline-copy=""');
  return new Response(html, { status: kept.status, statusText: kept.statusText, headers: kept.headers });
}

/** Fingerprinted files never change: the kept one when there is one, else the network's, kept. */
async function buildAsset(request) {
  const assets = await caches.open(ASSETS);
  const kept = await assets.match(request.url);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await assets.put(request.url, response.clone());
  return response;
}

/**
 * Keeps a page the worker did not see load (the first visit, before the worker existed, or after an
 * update emptied the caches), with the build files its HTML names and those the page says it loaded.
 */
async function keepPage(href, loaded) {
  const url = new URL(href, self.location.origin);
  if (url.origin !== self.location.origin || !CONTRIBUTOR_PAGE.test(url.pathname)) return;
  const wanted = new Set();
  for (const asset of loaded) {
    const assetUrl = new URL(String(asset), self.location.origin);
    if (assetUrl.origin === self.location.origin && assetUrl.pathname.startsWith("/build/")) wanted.add(assetUrl.pathname);
  }
  const pages = await caches.open(PAGES);
  if (!(await pages.match(url.href))) {
    const response = await fetch(url.href, { credentials: "same-origin" });
    if (!(await remember(url.href, response.clone()))) return;
    for (const match of (await response.text()).matchAll(/\/build\/[^"'\s<>)\\]+/g)) wanted.add(match[0]);
  }
  const assets = await caches.open(ASSETS);
  await Promise.all(
    [...wanted].map(async (path) => {
      const assetUrl = new URL(path, self.location.origin).href;
      if (await assets.match(assetUrl)) return;
      const response = await fetch(assetUrl).catch(() => null);
      if (response && response.ok) await assets.put(assetUrl, response);
    }),
  );
}
