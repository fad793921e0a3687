import crypto from "node:crypto";
import { gzipFromTemplate, gzipTemplate, type GzipTemplate } from "./gzip-template.server";

// Rendered HTML kept for pages whose HTML is a function of what their loaders returned: the same
// loader data at the same address renders the same HTML, but for the nonce of the request's CSP,
// which is put in afresh each time. The key is a digest of everything the render reads — the
// address, the status and Remix's serialised state (every loader's data, which the page carries
// anyway) — so a page is only ever reused for a request whose loaders returned exactly the same
// data: nothing one visitor sees can reach another whose data differs, and a change to the
// Chorus (a new recipient, a gift, a tree) makes new data and so a new key. Which pages may be
// kept is said by their route (`handle.keepRendered`, routes/e.$uuid/route.tsx); entry.server.tsx asks.
// docs/decisions/034-event-page-throughput.md.
//
// A page is kept as the text between its nonces, and gzipped once with the nonces left as gaps
// (gzip-template.server.ts): an answer is the pieces joined by the request's nonce, compressed or
// not, without reading or compressing the page again (docs/decisions/060-the-event-page-on-any-machine.md).

/** Pages kept per process, the least recently used dropped first (~70 KB each, ~15 KB more gzipped). */
const MAX_PAGES = 200;

interface KeptPage {
  /** The page's text between the places its nonce was, in UTF-8. */
  pieces: Buffer[];
  /** The same, gzipped once; made the first time the page is answered from here. */
  gzipped?: GzipTemplate;
}

const pages = new Map<string, KeptPage>();

/** The key of a render: a digest of all it depends on. */
export function renderKey(parts: string[]): string {
  const hash = crypto.createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest("base64");
}

/** The page kept under `key` (most recently used from now), or undefined. */
function recentlyUsedPage(key: string): KeptPage | undefined {
  const page = pages.get(key);
  if (!page) return undefined;
  // Most recently used last: the first in the map is the one to drop.
  pages.delete(key);
  pages.set(key, page);
  return page;
}

/** The page kept under `key`, with `nonce` in place of the one it was rendered with. */
export function keptPage(key: string, nonce: string): string | null {
  const page = recentlyUsedPage(key);
  return page ? page.pieces.map((piece) => piece.toString("utf8")).join(nonce) : null;
}

/** The page kept under `key`, with `nonce` in place of the one it was rendered with, gzipped. */
export function keptPageGzipped(key: string, nonce: string): Uint8Array<ArrayBuffer> | null {
  const page = recentlyUsedPage(key);
  if (!page) return null;
  page.gzipped ??= gzipTemplate(page.pieces);
  return gzipFromTemplate(page.gzipped, Buffer.from(nonce, "utf8"));
}

/** Keeps `html`, rendered with `nonce`, under `key`. */
export function keepPage(key: string, html: string, nonce: string) {
  // A nonce too short could stand for other text of the page when replaced.
  if (nonce.length < 16) return;
  pages.delete(key);
  pages.set(key, { pieces: html.split(nonce).map((piece) => Buffer.from(piece, "utf8")) });
  while (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value!);
}
