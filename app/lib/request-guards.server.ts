import type { NextFunction, Request, Response } from "express";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, RETRY_AFTER_SECONDS } from "./database-errors.server";

/**
 * Guards that run before any route: an address no browser would send is refused here, in the
 * shape its caller expects, instead of reaching a router that throws on it (Express decodes route
 * parameters with decodeURIComponent, which throws a URIError on a broken escape) or a page that
 * would be matched against a normalised path.
 */

/** Paths answered in the API's JSON error shape: the /api calls and the upload endpoint. */
const answersJson = (path: string) => path === "/api" || path.startsWith("/api/") || path.startsWith("/uploads/");

// `..` and `.` segments, also percent-encoded: browsers remove them before sending, so only a
// hand-made request has them, and a router would otherwise match the path they lead to.
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;
// An encoded slash, backslash or control character (line breaks too, U+2028/2029 included) inside
// a segment: no id or page name contains one, and React Router's patterns stop at a line break, so
// such a path would match no route at all.
const ENCODED_SEPARATOR = /%(2f|5c|[01][0-9a-f]|7f)|%e2%80%a[89]/i;

/** Security headers of an answer the guards give: the page middleware's (security.server.ts), made strict. */
const PLAIN_ANSWER_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A small page of its own: the app's shell is not rendered for an address that never reaches it, nor
 * while the database it reads is away. `link` is where its one link leads (the home page unless
 * said); `nonce` is the response's CSP nonce, when the page is answered under one.
 */
export function plainErrorPage(
  status: number,
  title: string,
  message: string,
  { link = { href: "/", label: "Go to the home page" }, nonce }: { link?: { href: string; label: string }; nonce?: string } = {},
) {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Chorus</title>
<style${nonce ? ` nonce="${escapeHtml(nonce)}"` : ""}>body{font-family:system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1.25rem;color:#1f2937;line-height:1.5}a{color:#4338ca}</style>
</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>
<!-- ${status} --></body></html>`;
}

export function sendError(req: Request, res: Response, status: number, code: string, message: string, title = "Something went wrong") {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status);
  res.setHeader("Cache-Control", "no-store");
  // The guards answer before the security headers of the page middleware are set: these answers
  // carry their own (an error page has no script, no frame and nothing to load but its own style).
  for (const [name, value] of Object.entries(PLAIN_ANSWER_HEADERS)) res.setHeader(name, value);
  if (answersJson(req.path)) {
    res.json({ success: false, error: { code, message } });
  } else {
    res.type("html").send(plainErrorPage(status, title, message));
  }
}

/** Refuses request paths with a broken percent escape, dot segments, or an encoded separator or control character. */
export function refuseMalformedPaths(req: Request, res: Response, next: NextFunction) {
  const raw = (req.originalUrl || req.url || "/").split("?")[0]!;
  let valid = !DOT_SEGMENT.test(raw) && !ENCODED_SEPARATOR.test(raw) && !raw.includes("\0");
  if (valid) {
    try {
      decodeURIComponent(raw);
    } catch {
      valid = false;
    }
  }
  if (valid) return next();
  sendError(req, res, 400, "BAD_PATH", "This address is not valid. Check the link and try again.", "This address is not valid");
}

/**
 * The last Express handler: an error that escaped every route answers a plain message — never a
 * stack, SQL text or a path of this machine, whatever NODE_ENV says — and is logged here.
 */
export function finalErrorHandler(error: unknown, req: Request, res: Response, _next: NextFunction) {
  const status = typeof (error as { status?: unknown })?.status === "number" ? (error as { status: number }).status : 500;
  if (error instanceof URIError || (status >= 400 && status < 500)) {
    sendError(
      req,
      res,
      status === 500 ? 400 : status,
      "BAD_REQUEST",
      "This request could not be understood.",
      "This request could not be understood",
    );
    return;
  }
  if (isDatabaseUnavailable(error)) {
    // Not a fault of the request nor of the code: the database is away for a moment.
    console.warn(`${req.method} ${req.path}: the database is unavailable:`, (error as Error).message);
    if (!res.headersSent) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    sendError(req, res, 503, "UNAVAILABLE", DATABASE_UNAVAILABLE_MESSAGE, "Please try again in a moment");
    return;
  }
  console.error(`${req.method} ${req.path} failed:`, error);
  sendError(req, res, 500, "INTERNAL", "Something went wrong on our side. Please try again in a moment.");
}
