import type { PreAppHandler } from "./handler";

/** GHSA-chx6-hx7r-mcp5: nothing matches past the deepest route plus one segment, so cutting there is safe. */
export interface ManifestBounds {
  path: string;
  maxDepth: number;
}

/** Remix's own limit (the client never sends a longer manifest URL). */
export const MANIFEST_URL_LIMIT = 7680;

/** Until a build is recorded (npm run dev, first request). */
const DEFAULT_MAX_DEPTH = 32;

let recorded: ManifestBounds | undefined;
const currentBounds = () => recorded ?? { path: "/__manifest", maxDepth: DEFAULT_MAX_DEPTH };

interface RouteEntry {
  path?: string;
  parentId?: string;
}

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

export function recordManifestBounds(next: ManifestBounds): void {
  recorded = next;
}

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

function cutPath(value: string, maxDepth: number): string {
  const segments = (value.startsWith("/") ? value : `/${value}`).split("/").slice(1);
  return "/" + segments.slice(0, maxDepth + 1).join("/");
}

/** Before Express and Remix read the target; any method (Remix ignores it). */
export const boundManifestRequests: PreAppHandler = (request, response) => {
  const target = request.url ?? "/";
  if (!target.includes("__manifest")) return false;
  // Dot segments resolved, as Remix will see the pathname.
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
