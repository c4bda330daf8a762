/**
 * Which route a request is about, by URL: the pattern that names it in log
 * lines and Sentry transactions, and whether a single-fetch request names a
 * route that does not exist. The patterns come from the build's route config
 * (`virtual:route-patterns`, vite.config.ts).
 */
import patterns, { routeIds } from "virtual:route-patterns";
import { matchRoutePattern } from "./route-pattern-matcher";
import { pagePathOfDataUrl } from "./route-patterns";

/** The page path a request is about: a `.data` request loads the page without the suffix. */
function pagePathOf(url: URL): string {
  return pagePathOfDataUrl(url) ?? url.pathname;
}

/** The route pattern that serves `url` (`/fixtures/items/:id`), the catch-all's `/*` for unknown paths. */
export function routePatternOf(url: URL): string | undefined {
  return matchRoutePattern(pagePathOf(url), patterns);
}

const knownRouteIds = new Set(routeIds);

/**
 * True when a single-fetch request names a route that does not exist in
 * `_routes`. Remix would answer 200 with no data; a clear 400 is kinder to
 * whoever sent it, and legitimate revalidations only ever name real routes.
 */
export function namesUnknownRoute(url: URL): boolean {
  const requested = url.searchParams.get("_routes");
  return requested !== null && requested.split(",").some((id) => !knownRouteIds.has(id));
}
