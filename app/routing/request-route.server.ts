/**
 * Which route a request is about, by URL: the framework's own `matchRoutes`
 * (the very function its server matches with) on the routes of the build it
 * serves (recorded by server/data-functions/wrapped-server-build.ts), with its basename.
 */
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

/** Records the routes of the build the framework serves; the same build again costs nothing. */
export function recordServedRoutes(
  routes: Record<string, RouteDefinition | undefined>,
  basename?: string,
): void {
  if (served?.routes === routes && served.basename === basename) return;
  served = { routes, tree: routeTreeOf(routes), basename };
}

/** The page path a request is about: a `.data` request loads the page without the suffix. */
function pagePathOf(url: URL): string {
  return pagePathOfDataUrl(url) ?? url.pathname;
}

/** False for a path with a malformed `%` escape: the pre-app guards refuse it (400), `matchRoutes` would print a warning. */
function decodable(pathname: string): boolean {
  if (!pathname.includes("%")) return true;
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * The pattern of the deepest route the framework matches for `url`
 * (`/fixtures/items/:id`; the catch-all's `/*`, also for a path no route can
 * be given, which is never traced); undefined before the framework was given
 * a build, or when no route matches.
 */
export function routePatternOf(url: URL): string | undefined {
  const table = served;
  const pathname = pagePathOf(url);
  if (!decodable(pathname)) return table && NOT_FOUND_PATTERN;
  const matches = table && matchRoutes(table.tree, pathname, table.basename);
  return matches ? routePatternOfMatches(matches) : undefined;
}

/**
 * True when a single-fetch request names a route that does not exist in
 * `_routes`. Remix would answer 200 with no data; a clear 400 is kinder to
 * whoever sent it, and legitimate revalidations only ever name real routes.
 */
export function namesUnknownRoute(url: URL): boolean {
  const requested = url.searchParams.get("_routes");
  const known = served?.routes;
  return (
    requested !== null && known !== undefined && requested.split(",").some((id) => !Object.hasOwn(known, id))
  );
}
