import { createStaticHandler } from "react-router";
import type { RouteObject } from "./route-patterns";

/** Matched as React Router's handler matches: branches ranked once per build (docs/decisions/0099). */
export function routeMatcher(tree: RouteObject[], basename: string | undefined) {
  const handler = tree.length > 0 ? createStaticHandler(tree, { basename }) : undefined;
  return (pathname: string) => handler?.match(pathname) ?? null;
}
