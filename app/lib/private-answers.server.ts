import type { NextFunction, Request, Response } from "express";

// Answers with money or personal data in them (a bill, a receipt, a payment's page, someone's
// Choruses, a staff list) are kept by no cache: not by a proxy between the server and the browser,
// nor by the browser itself for its back button or its disk after the person logged out. One rule
// by path, set on the answer as it goes out, so a page, its data requests (`?_data=`), an API
// call and an error page of the same path all carry it, whatever their route says or forgets.

export const NO_STORE = "private, no-store";

/** Paths whose every answer is private; matched against the decoded path in lower case, as the router matches. */
const PRIVATE_PATHS: readonly RegExp[] = [
  // Every API answer is someone's, but the few below that are the same for everyone.
  /^\/api(\/|$)/,
  /^\/dashboard\/?$/,
  // Profile, billing, invoices and their receipts.
  /^\/settings(\/|$)/,
  // The return page after paying.
  /^\/checkout\/complete\/?$/,
  // A Chorus's pages that sell something or show its organiser's work: the cart, the arrange page,
  // postcards, DVDs and books by post, the group gift card, trees.
  /^\/e\/[^/]+\/(checkout|arrange|postcards|post|gift|trees)(\/|$)/,
  // The local payment, gift card, postcard and parcel services' pages (used when no vendor keys are set).
  /^\/local-(payments|gift-cards|postcards|parcels)(\/|$)/,
  /^\/admin(\/|$)/,
  /^\/dev\/outbox(\/|$)/,
];

/** /api calls whose answers are the same for everyone and say how long they may be kept. */
const PUBLIC_API_PATHS = new Set(["/api/v2/geo-countries", "/api/v2/announcements/active"]);

/** Whether answers at `path` (as the request names it, percent-encoded) are private. */
export function isPrivatePath(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Not a path any route answers (refuseMalformedPaths refuses it first): nothing to keep anyway.
    return true;
  }
  const normal = decoded.toLowerCase().replace(/\/{2,}/g, "/");
  if (PUBLIC_API_PATHS.has(normal.replace(/\/$/, ""))) return false;
  return PRIVATE_PATHS.some((pattern) => pattern.test(normal));
}

/**
 * Sets `Cache-Control: private, no-store` on every answer to a private path, as its head is written:
 * Remix appends a route's own headers one by one, so one set before it would be doubled, not
 * replaced; hooking the head is how Express's own middleware (compression) changes an answer's
 * headers at the last moment.
 */
export function keepPrivateAnswersOutOfCaches(req: Request, res: Response, next: NextFunction) {
  if (isPrivatePath(req.path)) {
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<typeof writeHead>) {
      this.setHeader("Cache-Control", NO_STORE);
      return writeHead.apply(this, args);
    } as typeof writeHead;
  }
  next();
}
