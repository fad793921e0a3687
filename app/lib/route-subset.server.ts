import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/router";
import { routeTree } from "./request-log.server";

// Remix's router flattens, ranks and compiles every route of the build each time it matches a
// path, twice per request (Remix's own match, then its static handler's query): with this app's ~150 routes
// that is ~1 ms a match, more than everything else the busiest page (the public event page) costs
// once its HTML is kept (rendered-pages.server.ts). Its requests are given a build holding only
// the routes such a request can touch, so each match looks at a handful. Which requests may go
// there is decided by the whole build's own match (server.ts): nothing is answered by a route the
// whole build would not have chosen. docs/decisions/034-event-page-throughput.md.

/**
 * The build cut down to what a document request for `samplePath` uses: the routes it matches, and
 * those the page names in its partial manifest (Remix's lazy route discovery adds the matches of
 * each parent path: "/", "/e"), with the assets manifest cut to the same routes, so the page it
 * renders is the same as the whole build's.
 */
export function buildForPath(build: ServerBuild, samplePath: string): ServerBuild {
  const tree = routeTree(build);
  const segments = samplePath.split("/").filter(Boolean);
  const paths = [samplePath];
  for (let length = segments.length - 1; length >= 0; length--) paths.push(`/${segments.slice(0, length).join("/")}`);
  const ids = new Set<string>();
  for (const path of paths) for (const match of matchRoutes(tree, path) ?? []) ids.add(match.route.id!);
  const pick = <T>(routes: Record<string, T>) => Object.fromEntries(Object.entries(routes).filter(([id]) => ids.has(id)));
  return { ...build, routes: pick(build.routes), assets: { ...build.assets, routes: pick(build.assets.routes) } };
}
