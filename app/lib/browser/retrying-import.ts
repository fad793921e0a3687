// A part of the app loaded when it is needed (a view, the upload client) is one request on the
// contributor's link: a cut in the middle of it used to fail the import for good, and with it the
// part (a view gave way to "Something went wrong"; a file's card asked for a press of Retry). It is
// now fetched again by itself, as an upload's chunks are: after a growing delay, and at once when the
// browser says it is back online. The browser fetches a module again after a failed import.

/** Waits between tries, then the last one over and over: signal comes back by itself, or the page is left. */
const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 15_000, 30_000];

/** Runs `run` after `ms`, or as soon as the browser says it is back online. */
function afterDelayOrOnline(run: () => void, ms: number) {
  const go = () => {
    clearTimeout(timer);
    window.removeEventListener("online", go);
    run();
  };
  const timer = setTimeout(go, ms);
  window.addEventListener("online", go);
}

/**
 * `load()` until it succeeds. The promise never rejects: what waits for it (React's Suspense, a
 * file's card) goes on waiting, and `onFailure` is told of each failed try (to say "Waiting for
 * signal"). A chunk the server no longer has (a newer build) is asked for every 30 s while the
 * page stays open; the page's server-rendered HTML still works meanwhile.
 */
export function retryingImport<T>(load: () => Promise<T>, onFailure?: () => void): Promise<T> {
  return new Promise<T>((resolve) => {
    let failures = 0;
    const attempt = () =>
      load().then(resolve, () => {
        onFailure?.();
        afterDelayOrOnline(attempt, RETRY_DELAYS_MS[Math.min(failures++, RETRY_DELAYS_MS.length - 1)]!);
      });
    attempt();
  });
}

/**
 * A module loaded once, on first need, with retries; callers that arrive while a try has failed
 * and the next is awaited are told at once (`onWaiting`), and again at each failed try.
 */
export function retryingModule<T>(load: () => Promise<T>) {
  let loading: Promise<T> | null = null;
  let failed = false;
  const waiting = new Set<() => void>();
  return (onWaiting?: () => void): Promise<T> => {
    loading ??= retryingImport(load, () => {
      failed = true;
      for (const tell of waiting) tell();
    }).then((module) => {
      failed = false;
      waiting.clear();
      return module;
    });
    if (onWaiting) {
      waiting.add(onWaiting);
      if (failed) onWaiting();
      void loading.then(() => waiting.delete(onWaiting));
    }
    return loading;
  };
}
