import crypto from "node:crypto";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import type { NextFunction, Request, Response } from "express";
import { env } from "./env.server";
import { observeRequest } from "./metrics.server";

// One line per answered request (docs/deploy.md): JSON in production (method, route pattern, path,
// status, milliseconds, request id), a readable line in development; the same request counted in
// the metrics under its route pattern. The request id is the caller's X-Request-Id when it looks
// like one (a load balancer's), else a new one, and is sent back in the answer's X-Request-Id.

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

type RouteObject = AgnosticRouteObject & { children?: RouteObject[] };

/** Remix's route tree as the router matches it, from the build's flat manifest. */
export function routeTree(build: ServerBuild): RouteObject[] {
  const children = (parentId: string | undefined): RouteObject[] =>
    Object.values(build.routes)
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, path: route.path, index: true }
          : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: children(route.id) },
      );
  return children(undefined);
}

/**
 * Names the route pattern a path falls under, for logs and metrics: the server's own paths by
 * name, Remix's by the pattern of the route that answers (`/e/:uuid/arrange`); an unknown path is
 * `unmatched`, so random paths never make a series each.
 */
export function routePatterns(build: ServerBuild, tusPath: string) {
  const tree = routeTree(build);
  const known = new Map<string, string>();
  return (pathname: string): string => {
    if (pathname.startsWith(`${tusPath}/`)) return `${tusPath}/:id`;
    if (pathname === tusPath) return tusPath;
    if (pathname === "/healthz" || pathname === "/readyz" || pathname === "/metrics") return pathname;
    if (pathname.startsWith("/build/")) return "/build/*";
    if (pathname.startsWith("/socket.io/")) return "/socket.io";
    const cached = known.get(pathname);
    if (cached) return cached;
    const matches = matchRoutes(tree, pathname);
    const last = matches?.[matches.length - 1];
    // A splat route (api.$.ts, the catch-all page) is named by its pattern too, never by the path.
    const pattern = last
      ? `/${matches!
          .map((match) => match.route.path)
          .filter(Boolean)
          .join("/")}`
      : "unmatched";
    if (known.size < 5000 && !pattern.includes("*")) known.set(pathname, pattern);
    return pattern;
  };
}

/** Logs and counts every request once it is answered (or its connection closed). */
export function requestLog(routeOf: (pathname: string) => string, { quiet }: { quiet: boolean }) {
  const format = env().LOG_FORMAT ?? (env().NODE_ENV === "production" ? "json" : "text");
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const offered = req.get("x-request-id");
    const requestId = offered && REQUEST_ID.test(offered) ? offered : crypto.randomUUID();
    res.locals.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    const pathname = (req.originalUrl.split("?")[0] ?? "/") || "/";
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // An answer the client stopped waiting for before it was sent is logged as 499.
      const status = res.writableFinished ? res.statusCode : 499;
      const route = routeOf(pathname);
      observeRequest(req.method, route, status, ms / 1000);
      if (quiet) return;
      const rounded = Math.round(ms * 10) / 10;
      if (format === "json") {
        const line = {
          level: "info",
          time: new Date().toISOString(),
          msg: "request",
          method: req.method,
          route,
          path: pathname,
          status,
          ms: rounded,
          requestId,
        };
        process.stdout.write(`${JSON.stringify(line)}\n`);
      } else {
        process.stdout.write(`${req.method} ${pathname} ${status} ${rounded} ms (${route}) ${requestId}\n`);
      }
    };
    res.once("finish", finish);
    res.once("close", finish);
    next();
  };
}
