import type { NextFunction, Request, Response } from "express";

/** A line break, escaped, in a path as it arrives: React Router's splat pattern (`.*`) stops at one. */
const LINE_BREAK = /%0a|%0d|%e2%80%a8|%e2%80%a9/i;

/**
 * An /api path with a line break matches no route, not even the catch-all `api.$.ts`, and Remix
 * would answer its HTML 404 page. No call takes one, so it is answered here in the API's shape.
 */
export function refuseUnroutableApiPaths(req: Request, res: Response, next: NextFunction) {
  if (!LINE_BREAK.test(req.originalUrl.split("?")[0]!)) return next();
  res.status(404).json({ success: false, error: { code: "NOT_FOUND", message: "There is no API call at this address." } });
}
