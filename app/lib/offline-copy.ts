/**
 * The response header by which the server tells the service worker (public/sw.js, which spells it
 * too) that a page may be kept on the phone for offline use: `Chorus-Offline-Copy: contributor`.
 */
export const OFFLINE_COPY_HEADER = "Chorus-Offline-Copy";

/** The worker's address; `?v=` is the build's version, so a new deploy installs a new worker. */
export const SERVICE_WORKER_PATH = "/sw.js";

/** The pages the worker controls: event pages only, never the organiser's dashboard or the rest. */
export const SERVICE_WORKER_SCOPE = "/e/";
