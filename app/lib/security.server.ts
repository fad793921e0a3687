import crypto from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A fresh nonce for each response, used by the CSP and by Remix's inline scripts. */
export function assignCspNonce(_req: Request, res: Response, next: NextFunction) {
  res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
  next();
}

/**
 * Security headers. `https`: the app is served over https (APP_URL), so insecure subresources are
 * upgraded and HSTS is sent; over plain http (a fresh clone's `npm start` on http://localhost, in
 * production mode too) upgrading would send the page's own assets to an https port nobody serves.
 */
export function contentSecurityPolicy({ sentryDsn, https }: { sentryDsn?: string; https: boolean }) {
  const connect = ["'self'", "ws:", "wss:"];
  if (sentryDsn) connect.push(new URL(sentryDsn).origin);
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "base-uri": ["'self'"],
        "connect-src": connect,
        "font-src": ["'self'", "data:"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        // Stock photo search results are shown straight from Unsplash's image host, as their terms ask.
        "img-src": ["'self'", "data:", "blob:", "https://images.unsplash.com"],
        "media-src": ["'self'", "blob:"],
        "object-src": ["'none'"],
        "script-src": ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
        "style-src": ["'self'", "'unsafe-inline'"],
        "worker-src": ["'self'", "blob:"],
        ...(https ? { "upgrade-insecure-requests": [] } : {}),
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: https ? undefined : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
}

/**
 * Paths other sites post to by design, each protected by a signature of its own instead: the
 * payment service's and the print service's webhooks.
 */
const CROSS_ORIGIN_POSTS = new Set(["/stripe/webhook", "/lob/webhook"]);

/**
 * Rejects state-changing requests sent by pages of another origin. Browsers
 * always send Origin on cross-origin POST/PUT/DELETE; requests with neither Origin
 * nor Referer come from non-browser clients, which carry no ambient cookies risk.
 */
export function rejectCrossOriginMutations(appUrl: string) {
  const allowed = new URL(appUrl).origin;
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method) || CROSS_ORIGIN_POSTS.has(req.path.replace(/\/$/, ""))) return next();
    const source = req.get("origin") ?? refererOrigin(req.get("referer"));
    const selfOrigin = `${req.protocol}://${req.get("host")}`;
    if (!source || source === allowed || source === selfOrigin) {
      // Judged here, against APP_URL too. Remix judges a page form's Origin again, against Host or
      // X-Forwarded-Host only, and answers an empty 500 when they differ: every post through a proxy
      // that rewrites Host (docs/deploy.md). Nothing after this reads Origin, so it is not passed on.
      delete req.headers.origin;
      return next();
    }
    res.status(403).json({
      success: false,
      error: { code: "CROSS_ORIGIN", message: "This request came from another site and was refused." },
    });
  };
}

function refererOrigin(referer: string | undefined) {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return "null";
  }
}
