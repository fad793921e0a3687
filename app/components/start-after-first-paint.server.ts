// The inline script that starts the app's scripts after the first paint (scripts-after-first-paint.tsx,
// docs/decisions/039-scripts-after-first-paint.md). Only the server writes it into the page: the
// browser's copy of this module is empty, so the app's JavaScript does not carry it a second time.
//
// It finds the <noscript> just before it, whose text is Remix's <Scripts> in a <template>. When the
// browser reports its first contentful paint, it parses that text and puts the same elements into
// the <noscript>, where they load and run as Remix wrote them: the module preloads, then Remix's
// context, then the module that imports the routes and the entry. Each script gets this script's
// CSP nonce. They go in a few at a time, with a yield to the browser between batches: a module
// preload starts its download as it is added, and 20–24 of them added in one go made one of the
// longest tasks after the paint (docs/decisions/043-short-tasks-after-the-first-paint.md). Without
// paint timing it starts after the next frame; in a tab that is not shown (it paints nothing) at
// once; and should no paint be reported, after START_AT_THE_LATEST_MS anyway.
//
// Until the app has started (entry.client.tsx says so on `window`), a file of the app cut off by the
// link is fetched again: a module script that failed (it fires `error`), or one whose routes ran but
// whose entry did not (its import failed without a sound), is put in again after a growing delay, or
// at once when the browser is back online. The browser fetches again what failed; what loaded is
// neither fetched nor run a second time (docs/decisions/050-a-press-on-a-bad-link.md).

import { APP_STARTED_GLOBAL } from "~/lib/browser/app-started";

/** A first paint later than this after the page's HTML has been read is not waited for. */
const START_AT_THE_LATEST_MS = 3_000;

/**
 * How long one batch of added elements may hold the main thread before the script yields (the first
 * batch counts the reading of the <noscript>'s text too), as React's scheduler slices its own work.
 * Lighthouse's mobile audit counts a task as four times as long as it took, and as blocking from
 * 50 ms: a batch, with the one element added past its time, stays well under 12.5 ms.
 */
const BATCH_MS = 4;

/** Between looks at whether the app has started, growing after each time its module scripts are put in again. */
const RETRY_DELAYS_MS = [2000, 4000, 8000, 15_000, 30_000];

const READABLE = `(function () {
  var script = document.currentScript;
  var holder = script && script.previousElementSibling;
  var started = false;
  var modules = [];
  var failed = false;
  var tries = 0;
  if (!holder || holder.tagName !== "NOSCRIPT") return;
  function copyOf(element) {
    var copy = document.createElement(element.localName);
    Array.prototype.forEach.call(element.attributes, function (attribute) {
      copy.setAttribute(attribute.name, attribute.value);
    });
    if (copy.localName === "script") {
      copy.nonce = script.nonce;
      copy.textContent = element.textContent;
      if (copy.type === "module") {
        copy.addEventListener("error", function () {
          failed = true;
        });
      }
    }
    return copy;
  }
  function start() {
    if (started) return;
    started = true;
    var began = Date.now();
    var parsed = document.createElement("template");
    parsed.innerHTML = holder.textContent;
    var scripts = parsed.content.querySelector("template");
    holder.textContent = "";
    if (!scripts) return;
    var elements = Array.prototype.slice.call(scripts.content.children);
    modules = elements.filter(function (element) {
      return element.localName === "script" && element.getAttribute("type") === "module";
    });
    appendFrom(elements.map(copyOf), 0, began);
    watch();
  }
  function appendFrom(copies, next, batchStart) {
    while (next < copies.length) {
      holder.appendChild(copies[next]);
      next += 1;
      if (next < copies.length && Date.now() - batchStart >= ${BATCH_MS}) {
        setTimeout(function () {
          appendFrom(copies, next, Date.now());
        }, 0);
        return;
      }
    }
  }
  function watch() {
    if (!("noModule" in script)) return;
    var delays = ${JSON.stringify(RETRY_DELAYS_MS)};
    var timer = setTimeout(look, delays[Math.min(tries, delays.length - 1)]);
    function look() {
      clearTimeout(timer);
      window.removeEventListener("online", look);
      if (window.${APP_STARTED_GLOBAL}) return;
      if (failed || window.__remixRouteModules) {
        failed = false;
        tries += 1;
        modules.forEach(function (element) {
          holder.appendChild(copyOf(element));
        });
      }
      watch();
    }
    window.addEventListener("online", look);
  }
  var paintTiming = window.PerformanceObserver && (PerformanceObserver.supportedEntryTypes || []).indexOf("paint") >= 0;
  if (document.visibilityState !== "visible") {
    setTimeout(start, 0);
  } else if (!paintTiming) {
    requestAnimationFrame(function () {
      setTimeout(start, 0);
    });
  } else {
    new PerformanceObserver(function (entries, observer) {
      if (!entries.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      start();
    }).observe({ type: "paint", buffered: true });
    setTimeout(start, ${START_AT_THE_LATEST_MS});
  }
})();`;

// Every line above ends where a statement or block may end, so the indentation can go.
export const START_AFTER_FIRST_PAINT_SCRIPT = READABLE.replace(/\n\s*/g, "");
