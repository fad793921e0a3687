/**
 * Set on `window` when the app's entry has run (entry.client.tsx): until then, the script that starts
 * the app's scripts (start-after-first-paint.server.ts) fetches again those a cut link failed.
 */
export const APP_STARTED_GLOBAL = "__chorusAppStarted";
