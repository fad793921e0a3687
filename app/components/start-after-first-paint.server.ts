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

/** A first paint later than this after the page's HTML has been read is not waited for. */
const START_AT_THE_LATEST_MS = 3_000;

/**
 * How long one batch of added elements may hold the main thread before the script yields (the first
 * batch counts the reading of the <noscript>'s text too), as React's scheduler slices its own work.
 * Lighthouse's mobile audit counts a task as four times as long as it took, and as blocking from
 * 50 ms: a batch, with the one element added past its time, stays well under 12.5 ms.
 */
const BATCH_MS = 4;

const READABLE = `(function () {
  var script = document.currentScript;
  var holder = script && script.previousElementSibling;
  var started = false;
  if (!holder || holder.tagName !== "NOSCRIPT") return;
  function start() {
    if (started) return;
    started = true;
    var began = Date.now();
    var parsed = document.createElement("template");
    parsed.innerHTML = holder.textContent;
    var scripts = parsed.content.querySelector("template");
    holder.textContent = "";
    if (!scripts) return;
    var copies = Array.prototype.map.call(scripts.content.children, function (element) {
      var copy = document.createElement(element.localName);
      Array.prototype.forEach.call(element.attributes, function (attribute) {
        copy.setAttribute(attribute.name, attribute.value);
      });
      if (copy.localName === "script") {
        copy.nonce = script.nonce;
        copy.textContent = element.textContent;
      }
      return copy;
    });
    appendFrom(copies, 0, began);
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
