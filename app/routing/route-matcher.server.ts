import { matchRoutes } from "@remix-run/react";
import type { RouteObject } from "./route-patterns";

/** The framework's own matching on a served route tree (Remix 2: `matchRoutes`, whose branches 0030's patch keeps). */
export function routeMatcher(tree: RouteObject[], basename: string | undefined) {
  return (pathname: string) => matchRoutes(tree, pathname, basename);
}
