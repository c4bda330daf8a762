import {
  NOT_FOUND_PATTERN,
  pagePathOfDataUrl,
  routePatternOfMatches,
  routeTreeOf,
  type RouteDefinition,
} from "./route-patterns";
import { routeMatcher } from "./route-matcher.server";

interface ServedRoutes {
  routes: Record<string, RouteDefinition | undefined>;
  match: ReturnType<typeof routeMatcher>;
  basename: string | undefined;
}

let served: ServedRoutes | undefined;

export function recordServedRoutes(
  routes: Record<string, RouteDefinition | undefined>,
  basename?: string,
): void {
  if (served?.routes === routes && served.basename === basename) return;
  served = { routes, match: routeMatcher(routeTreeOf(routes), basename), basename };
}

function pagePathOf(url: URL): string {
  return pagePathOfDataUrl(url) ?? url.pathname;
}

/** A malformed `%` escape: the pre-app guards refuse it (400), and matching would print a warning. */
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
  const matches = table?.match(pathname);
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
