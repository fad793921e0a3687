import type { NextFunction, Request, Response } from "express";

const statusOf = (error: unknown) => {
  const status = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === "number" && status >= 400 && status < 600 ? status : 500;
};

/**
 * The last word on an error no handler answered. Express's own answer is the error's stack in
 * development and test, and a database error's message is its statement with its values: neither
 * leaves the server. The client gets a status and a plain sentence (the API's error shape under
 * /api and /uploads); a 5xx is logged.
 */
export function answerUnexpectedErrors(error: unknown, req: Request, res: Response, next: NextFunction) {
  const status = statusOf(error);
  if (status >= 500) console.error(`${req.method} ${req.path} failed:`, error);
  if (res.headersSent) return next(error);
  const message = status >= 500 ? "Something went wrong on our side. Please try again." : "This request could not be read.";
  if (/^\/(api|uploads)(\/|$)/.test(req.path)) {
    const code = status >= 500 ? "INTERNAL" : "BAD_REQUEST";
    res.status(status).json({ success: false, error: { code, message } });
    return;
  }
  res.status(status).type("text/plain").send(message);
}
