/** The framework's own `matchRoutes` on the routes of the build it serves, with its basename. */
import { matchRoutes } from "@remix-run/react";
import {
  NOT_FOUND_PATTERN,
  pagePathOfDataUrl,
  routePatternOfMatches,
  routeTreeOf,
  type RouteDefinition,
  type RouteObject,
} from "./route-patterns";

interface ServedRoutes {
  routes: Record<string, RouteDefinition | undefined>;
  tree: RouteObject[];
  basename: string | undefined;
}

let served: ServedRoutes | undefined;

export function recordServedRoutes(
  routes: Record<string, RouteDefinition | undefined>,
  basename?: string,
): void {
  if (served?.routes === routes && served.basename === basename) return;
  served = { routes, tree: routeTreeOf(routes), basename };
}

function pagePathOf(url: URL): string {
  return pagePathOfDataUrl(url) ?? url.pathname;
}

/** A malformed `%` escape: the pre-app guards refuse it (400), and `matchRoutes` would print a warning. */
function decodable(pathname: string): boolean {
  if (!pathname.includes("%")) return true;
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** The catch-all's `/*` also for a path no route can be given; undefined before a build is served. */
export function routePatternOf(url: URL): string | undefined {
  const table = served;
  const pathname = pagePathOf(url);
  if (!decodable(pathname)) return table && NOT_FOUND_PATTERN;
  const matches = table && matchRoutes(table.tree, pathname, table.basename);
  return matches ? routePatternOfMatches(matches) : undefined;
}

/** Remix would answer 200 with no data; legitimate revalidations only ever name real routes. */
export function namesUnknownRoute(url: URL): boolean {
  const requested = url.searchParams.get("_routes");
  const known = served?.routes;
  return (
    requested !== null && known !== undefined && requested.split(",").some((id) => !Object.hasOwn(known, id))
  );
}
