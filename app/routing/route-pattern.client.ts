/** From the framework's own router (`window.__remixRouter`, server/adapter/README.md). */
import { matchRoutes } from "@remix-run/react";
import { routePatternOfMatches, type RouteObject } from "./route-patterns";

interface MatchedState {
  matches: readonly { route: { path?: string } }[];
}

interface FrameworkRouter {
  state: MatchedState;
  routes: RouteObject[];
  basename: string;
}

/** Created before hydration, before any `clientLoader` runs. */
function frameworkRouter(): FrameworkRouter | undefined {
  return (window as { __remixRouter?: FrameworkRouter }).__remixRouter;
}

export function browserRoutePattern(of?: string | MatchedState): string | undefined {
  const router = frameworkRouter();
  if (!router) return undefined;
  const matches =
    typeof of === "string" ? matchRoutes(router.routes, of, router.basename) : (of ?? router.state).matches;
  return matches && matches.length > 0 ? routePatternOfMatches(matches) : undefined;
}
