/**
 * The browser's route pattern of a page: from the framework's own router
 * (`window.__remixRouter`, server/adapter/README.md), its state's matches for
 * the page shown, its `matchRoutes` on its own route objects for a pathname.
 */
import { matchRoutes } from "@remix-run/react";
import { routePatternOfMatches, type RouteObject } from "./route-patterns";

/** What is read of the router's state: the matches it rendered (root first). */
interface MatchedState {
  matches: readonly { route: { path?: string } }[];
}

interface FrameworkRouter {
  state: MatchedState;
  routes: RouteObject[];
  basename: string;
}

/** The framework's router, once the framework created it (before hydration, before any `clientLoader` runs). */
function frameworkRouter(): FrameworkRouter | undefined {
  return (window as { __remixRouter?: FrameworkRouter }).__remixRouter;
}

/**
 * The pattern of the page the router shows (no argument), of a router state
 * (a subscriber's), or of a pathname (matched on the routes the router knows
 * so far); undefined before the router exists or when no route matches.
 */
export function browserRoutePattern(of?: string | MatchedState): string | undefined {
  const router = frameworkRouter();
  if (!router) return undefined;
  const matches =
    typeof of === "string" ? matchRoutes(router.routes, of, router.basename) : (of ?? router.state).matches;
  return matches && matches.length > 0 ? routePatternOfMatches(matches) : undefined;
}
