/**
 * Which route a request is about, by URL, from the routes of the build the
 * framework serves (recorded by server/wrapped-server-build.ts); the browser
 * computes the same patterns from `virtual:route-patterns` (vite.config.ts).
 */
import { globalSlot } from "~/global-slot";
import { matchRoutePattern } from "./route-pattern-matcher";
import { pagePathOfDataUrl, routePatterns, type RouteDefinition, type RoutePattern } from "./route-patterns";

interface ServedRoutes {
  routes: Record<string, RouteDefinition>;
  patterns: RoutePattern[];
  ids: Set<string>;
}

/** In a global slot (app/global-slot.ts): the boot's copy reads what the server build's records. */
const served = globalSlot<ServedRoutes>("served-routes");

/** Records the routes of the build Remix serves; the same routes object again costs nothing. */
export function recordServedRoutes(routes: Record<string, RouteDefinition>): void {
  if (served.get()?.routes === routes) return;
  served.set({ routes, patterns: routePatterns(routes), ids: new Set(Object.keys(routes)) });
}

/** The page path a request is about: a `.data` request loads the page without the suffix. */
function pagePathOf(url: URL): string {
  return pagePathOfDataUrl(url) ?? url.pathname;
}

/**
 * The route pattern that serves `url` (`/fixtures/items/:id`), the catch-all's
 * `/*` for unknown paths; undefined before Remix was given a build.
 */
export function routePatternOf(url: URL): string | undefined {
  const table = served.get();
  return table && matchRoutePattern(pagePathOf(url), table.patterns);
}

/**
 * True when a single-fetch request names a route that does not exist in
 * `_routes`. Remix would answer 200 with no data; a clear 400 is kinder to
 * whoever sent it, and legitimate revalidations only ever name real routes.
 */
export function namesUnknownRoute(url: URL): boolean {
  const requested = url.searchParams.get("_routes");
  const known = served.get()?.ids;
  return requested !== null && known !== undefined && requested.split(",").some((id) => !known.has(id));
}
