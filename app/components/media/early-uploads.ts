import type { SentWords } from "./sending-files";

// What the page's early uploader (early-uploads.server.ts) offers the app once it has started. The
// uploader is an inline script written before the contribution form: it holds a press of Upload
// made before the app has started and, should the app not start within EARLY_TAKE_OVER_MS, sends
// the held files itself.

/** The name the early uploader is known by on `window`. */
export const EARLY_UPLOADS_GLOBAL = "__chorusEarlyUploads";

/** How long a held press waits for the app before the early uploader sends its files. */
export const EARLY_TAKE_OVER_MS = 5000;

/** Files picked and pressed before the app started, with the words the form had then. */
export interface HeldPress {
  files: File[];
  words: SentWords;
}

export interface EarlyUploads {
  /** The app has started: it takes the presses still held, which the early uploader then leaves alone. */
  claim(): HeldPress[];
  /** Sends `files` as the early uploader does, with its own cards in `form` (what sends them in the app could not load). */
  send(form: HTMLFormElement, files: File[], words: SentWords): void;
  /** Whether the early uploader has the file of this fingerprint (upload-fingerprint.ts) and has not cancelled it. */
  has(fingerprint: string): boolean;
}

/** The early uploader of this page, if it has one (the contribution form writes it; a browser without modules skips it). */
export const earlyUploads = () =>
  typeof window === "undefined" ? undefined : (window as unknown as Record<string, EarlyUploads | undefined>)[EARLY_UPLOADS_GLOBAL];
