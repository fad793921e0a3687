// What a contributor's browser keeps about their uploads (spec §3 "values kept locally"):
// their upload token (their key to their own uploads, no account needed), the uploads
// they finished, the ones that failed, and the state of those still in progress. The files
// themselves are kept apart, in IndexedDB (kept-files.ts), under the same fingerprints.

/** Where it is kept in localStorage; the page's early uploader (early-uploads.server.ts) writes there too. */
export const UPLOAD_STORE_KEY = "chorus.uploads.v1";

export interface StoredUpload {
  /** tus fingerprint of the file, to offer resuming it after a reload. */
  fingerprint: string;
  /** The fingerprint of the file as it was picked, when what was sent differs (a large photo shrunk first). */
  pickedFingerprint?: string;
  eventUuid: string;
  name: string;
  size: number;
  type: string;
  purpose: "contribution" | "thank_you";
  state: "uploading" | "failed" | "done";
  bytesSent: number;
  mediaUuid?: string;
  error?: string;
  /** Why the browser could not keep the file itself to send on after a reload (kept-files.ts). */
  notKept?: string;
  updatedAt: number;
}

interface StoreShape {
  uploadToken: string | null;
  uploads: StoredUpload[];
}

const empty = (): StoreShape => ({ uploadToken: null, uploads: [] });

function read(): StoreShape {
  if (typeof window === "undefined") return empty();
  try {
    const value = JSON.parse(window.localStorage.getItem(UPLOAD_STORE_KEY) ?? "null") as StoreShape | null;
    return value && Array.isArray(value.uploads) ? value : empty();
  } catch {
    return empty();
  }
}

function write(shape: StoreShape) {
  try {
    window.localStorage.setItem(UPLOAD_STORE_KEY, JSON.stringify(shape));
  } catch {
    // Private mode or a full quota: uploads still work, they just cannot be resumed after a reload.
  }
}

function randomToken() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** This browser's upload token, made once. */
export function uploadToken() {
  const shape = read();
  if (!shape.uploadToken) {
    shape.uploadToken = randomToken();
    write(shape);
  }
  return shape.uploadToken;
}

export function storedUploads(eventUuid: string, purpose?: StoredUpload["purpose"]) {
  // An empty file never uploads, so it can never be "interrupted" (older versions stored them).
  return read().uploads.filter((u) => u.eventUuid === eventUuid && (!purpose || u.purpose === purpose) && u.size > 0);
}

/** Whether an earlier visit left an upload to `eventUuid` unfinished: one to send on, or to list for picking again. */
export const hasUnfinishedUploads = (eventUuid: string, purpose: StoredUpload["purpose"]) =>
  storedUploads(eventUuid, purpose).some((u) => u.state !== "done");

/**
 * Whether this browser has already sent this file to `eventUuid`'s form, by the fingerprint of the file
 * as picked or as sent: picked again (after a reload, say), it is not sent a second time.
 */
export const sentBefore = (eventUuid: string, purpose: StoredUpload["purpose"], fingerprint: string) =>
  storedUploads(eventUuid, purpose).some(
    (u) => u.state === "done" && (u.fingerprint === fingerprint || u.pickedFingerprint === fingerprint),
  );

export function saveUpload(upload: StoredUpload) {
  if (upload.size === 0) return;
  const shape = read();
  shape.uploads = [...shape.uploads.filter((u) => u.fingerprint !== upload.fingerprint), { ...upload, updatedAt: Date.now() }]
    // Keep the list bounded: the newest 200.
    .slice(-200);
  write(shape);
}

export function forgetUpload(fingerprint: string) {
  const shape = read();
  shape.uploads = shape.uploads.filter((u) => u.fingerprint !== fingerprint);
  write(shape);
}
