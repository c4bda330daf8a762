/** Route names (`/items/:id`): the framework matches, we only name (docs/decisions/0072-route-names-from-the-frameworks-matches.md). */
import type { matchRoutes } from "@remix-run/react";

export type RouteObject = Parameters<typeof matchRoutes>[0][number];

export interface RouteDefinition {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
}

export const NOT_FOUND_PATTERN = "/*";

/** Each path joined to its parent's, as the framework flattens the tree (an absolute one holds its parent's). */
export function routePatternOfMatches(matches: readonly { route: { path?: string } }[]): string {
  let pattern = "";
  for (const { route } of matches) {
    if (!route.path) continue;
    pattern = route.path.startsWith("/") ? route.path : `${pattern}/${route.path}`;
  }
  return "/" + pattern.split("/").filter(Boolean).join("/");
}

/** As the framework builds it for the server: children in manifest order under their parent. */
export function routeTreeOf(manifest: Record<string, RouteDefinition | undefined>): RouteObject[] {
  const children = new Map<string | undefined, RouteObject[]>();
  const objects = new Map<string, RouteObject>();
  for (const route of Object.values(manifest)) {
    if (!route) continue;
    const { id, path, caseSensitive } = route;
    const object: RouteObject = route.index
      ? { id, path, caseSensitive, index: true }
      : { id, path, caseSensitive };
    objects.set(id, object);
    const siblings = children.get(route.parentId) ?? [];
    siblings.push(object);
    children.set(route.parentId, siblings);
  }
  for (const [id, object] of objects) {
    const own = children.get(id);
    if (own && !object.index) object.children = own;
  }
  return children.get(undefined) ?? [];
}

export { pagePathOfDataUrl } from "./data-url";
