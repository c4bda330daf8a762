/**
 * Which route a request is about, by URL: the pattern that names it in log
 * lines and Sentry transactions, and whether a single-fetch request names a
 * route that does not exist. The patterns come from the routes of the build
 * Remix serves, recorded when that build loads (server/app-build.ts); the
 * browser computes the same ones from
 * `virtual:route-patterns` (vite.config.ts).
 */
import { matchRoutePattern } from "./route-pattern-matcher";
import { pagePathOfDataUrl, routePatterns, type RouteDefinition, type RoutePattern } from "./route-patterns";

/**
 * On `globalThis`: under `npm run dev` the boot (run by Node) and the app
 * (run in Vite's module graph) each have their own copy of this module, and
 * both must see the one table (docs/decisions/0056-dev-runs-the-production-boot.md).
 */
const SERVED_ROUTES = Symbol.for("remix-scaffold.served-routes");

interface ServedRoutes {
  routes: Record<string, RouteDefinition>;
  patterns: RoutePattern[];
  ids: Set<string>;
}

const holder = globalThis as { [SERVED_ROUTES]?: ServedRoutes };

/** Records the routes of the build Remix serves; the same routes object again costs nothing. */
export function recordServedRoutes(routes: Record<string, RouteDefinition>): void {
  if (holder[SERVED_ROUTES]?.routes === routes) return;
  holder[SERVED_ROUTES] = { routes, patterns: routePatterns(routes), ids: new Set(Object.keys(routes)) };
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
  const served = holder[SERVED_ROUTES];
  return served && matchRoutePattern(pagePathOf(url), served.patterns);
}

/**
 * True when a single-fetch request names a route that does not exist in
 * `_routes`. Remix would answer 200 with no data; a clear 400 is kinder to
 * whoever sent it, and legitimate revalidations only ever name real routes.
 */
export function namesUnknownRoute(url: URL): boolean {
  const requested = url.searchParams.get("_routes");
  const known = holder[SERVED_ROUTES]?.ids;
  return requested !== null && known !== undefined && requested.split(",").some((id) => !known.has(id));
}
