import crypto from "node:crypto";
import { sessionSecrets } from "./session-secret.server";

/** How long a media link handed to a page keeps working. */
const LIFETIME_SECONDS = 6 * 60 * 60;

const signature = (path: string, expires: number) =>
  crypto.createHmac("sha256", sessionSecrets()[0]!).update(`media:${path}:${expires}`).digest("base64url");

/**
 * Private media is served only through signed, expiring links, which a page hands
 * out after checking who is looking (the organiser, the contributor who uploaded it,
 * the recipient). `<img>` and `<video>` cannot send credentials of their own.
 */
export function signedMediaUrl(mediaUuid: string, variant: string, now = Date.now()) {
  return signedFileUrl(`/media/${mediaUuid}/${variant}`, now);
}

/** A signed, expiring link to any file route that checks it with `verifyMediaUrl` (videos, renders). */
export function signedFileUrl(path: string, now = Date.now()) {
  // Rounded to the hour so a page's links stay cacheable between renders.
  const expires = Math.ceil(now / 3_600_000) * 3600 + LIFETIME_SECONDS;
  return `${path}?exp=${expires}&sig=${signature(path, expires)}`;
}

/**
 * A signed link to a file of a folder whose files name one another (an HLS ladder's playlists and
 * segments): the signature covers the folder, so the same `exp` and `sig` open each of its files.
 * The route checks it with `verifyMediaUrl(folder, …)`.
 */
export function signedFolderFileUrl(folder: string, file: string, now = Date.now()) {
  const signed = signedFileUrl(folder, now);
  return `${folder}/${file}${signed.slice(folder.length)}`;
}

export function verifyMediaUrl(path: string, exp: string | null, sig: string | null, now = Date.now()) {
  const expires = Number(exp);
  if (!sig || !Number.isInteger(expires) || expires * 1000 < now) return false;
  const expected = Buffer.from(signature(path, expires));
  const given = Buffer.from(sig);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/** Whether a request's address is a signed link that still works (its own path, `exp` and `sig`). */
export function isSignedUrl(url: URL, now = Date.now()) {
  return verifyMediaUrl(url.pathname, url.searchParams.get("exp"), url.searchParams.get("sig"), now);
}
