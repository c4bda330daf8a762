import type { PreAppHandler } from "./handler";

/**
 * A bound on what one lazy-route-discovery request (`/__manifest?p=…`) costs
 * (GHSA-chx6-hx7r-mcp5): Remix matches every prefix of every `p`, so one short
 * request of many segments holds the event loop.
 *
 * No route matches deeper than the deepest route plus one segment differently
 * (a splat takes the rest), so each path is cut to `maxDepth + 1` segments and
 * duplicates dropped: the answer is unchanged and the work bounded by the route
 * table, not the request. React Router's comma-separated `paths` is bounded the
 * same way, a second line behind its own fix.
 */
export interface ManifestBounds {
  /** Remix's manifest path: `${basename}/__manifest`. */
  path: string;
  /** Segments of the deepest route's full path (a splat counts as one). */
  maxDepth: number;
}

/** Remix's own limit on a manifest URL (the client never sends a longer one). */
export const MANIFEST_URL_LIMIT = 7680;

/** Until a build is recorded (npm run dev, first request): generous, still bounded. */
const DEFAULT_MAX_DEPTH = 32;

let recorded: ManifestBounds | undefined;
const currentBounds = () => recorded ?? { path: "/__manifest", maxDepth: DEFAULT_MAX_DEPTH };

interface RouteEntry {
  path?: string;
  parentId?: string;
}

/** The bounds of a build's manifest requests: its basename and the depth of its deepest route. */
export function manifestBoundsOf(routes: Record<string, RouteEntry>, basename = "/"): ManifestBounds {
  let maxDepth = 0;
  for (const route of Object.values(routes)) {
    let depth = 0;
    for (let at: RouteEntry | undefined = route; at; at = at.parentId ? routes[at.parentId] : undefined) {
      depth += (at.path ?? "").split("/").filter(Boolean).length;
    }
    maxDepth = Math.max(maxDepth, depth);
  }
  return { path: `${basename}/__manifest`.replace(/\/+/g, "/"), maxDepth };
}

/** Called when the server build loads (server/data-functions/wrapped-server-build.ts). */
export function recordManifestBounds(next: ManifestBounds): void {
  recorded = next;
}

/**
 * The request target Remix should see: the same path with each `p` cut to
 * `maxDepth + 1` segments, once each; `undefined` when the target is too long.
 */
export function boundedManifestTarget(
  search: string,
  pathname: string,
  maxDepth: number,
): string | undefined {
  if (pathname.length + search.length > MANIFEST_URL_LIMIT) return undefined;
  const params = new URLSearchParams(search);
  const bounded = new URLSearchParams();
  const seenP = new Set<string>();
  for (const [key, value] of params) {
    if (key === "p") {
      const path = cutPath(value, maxDepth);
      if (!seenP.has(path)) bounded.append("p", path);
      seenP.add(path);
    } else if (key === "paths") {
      bounded.append(
        "paths",
        [...new Set(value.split(",").map((path) => cutPath(path, maxDepth)))].join(","),
      );
    } else bounded.append(key, value);
  }
  const query = bounded.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** A path as the framework reads it (a leading slash added, split on "/"), cut to `maxDepth + 1` segments. */
function cutPath(value: string, maxDepth: number): string {
  const segments = (value.startsWith("/") ? value : `/${value}`).split("/").slice(1);
  return "/" + segments.slice(0, maxDepth + 1).join("/");
}

/** Rewrites a manifest request's target before Express and Remix read it; any method (Remix ignores it). */
export const boundManifestRequests: PreAppHandler = (request, response) => {
  const target = request.url ?? "/";
  if (!target.includes("__manifest")) return false;
  // The pathname as Remix will see it (dot segments resolved, as the URL parser does).
  let url: URL;
  try {
    url = new URL(target, "http://localhost");
  } catch {
    return false;
  }
  const bounds = currentBounds();
  if (url.pathname !== bounds.path) return false;
  const bounded = boundedManifestTarget(url.search, url.pathname, bounds.maxDepth);
  if (bounded === undefined) {
    response.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" });
    response.end("Bad Request: manifest request too long");
    return true;
  }
  request.url = bounded;
  return false;
};
