// The inline script that puts a page back where it was scrolled to before the app has started
// (scroll-restoration.tsx). It does what Remix's <ScrollRestoration> writes, with the same history
// key and `sessionStorage` entry, but reads `sessionStorage` only when the history entry already has
// a key: on a first visit the key is made here, so no position can have been saved for it, and the
// read is a synchronous call to the browser process that held the page's main thread for 2–65 ms
// while the page loaded (docs/decisions/043-short-tasks-after-the-first-paint.md). Only the server
// writes it into the page: the browser's copy of this module is empty.

const READABLE = `function (storageKey) {
  var state = window.history.state;
  if (!state || !state.key) {
    window.history.replaceState({ key: Math.random().toString(32).slice(2) }, "");
    return;
  }
  try {
    var storedY = JSON.parse(sessionStorage.getItem(storageKey) || "{}")[state.key];
    if (typeof storedY === "number") window.scrollTo(0, storedY);
  } catch (error) {
    console.error(error);
    sessionStorage.removeItem(storageKey);
  }
}`;

// Every line above ends where a statement or block may end, so the indentation can go.
/** The script's function, to be called with the `sessionStorage` entry of the scroll positions. */
export const RESTORE_SCROLL_FUNCTION = READABLE.replace(/\n\s*/g, "");
