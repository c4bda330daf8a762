/**
 * Route patterns: the names page loads, navigations, server transactions and
 * log lines carry (`/fixtures/items/:id`), computed from the framework's
 * resolved route config, so every route has one however it was declared.
 */

/** The part of a Remix route config entry that decides its URL. */
export interface RouteDefinition {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
}

export interface RoutePattern {
  /** Remix route id of the deepest route, e.g. `routes/$`. */
  id: string;
  /** Full URL pattern with a leading slash, e.g. `/fixtures/items/:id`. */
  pattern: string;
  /** Anchored regular expression source that matches exactly the pathnames this route serves. */
  regex: string;
}

/** The pattern of the catch-all `app/routes/$.tsx`: requests it serves are "not found". */
export const NOT_FOUND_PATTERN = "/*";

function fullPath(route: RouteDefinition, routes: Record<string, RouteDefinition>): string {
  const segments: string[] = [];
  for (let current: RouteDefinition | undefined = route; current;) {
    if (current.path) segments.unshift(current.path.replace(/^\/+|\/+$/g, ""));
    current = current.parentId ? routes[current.parentId] : undefined;
  }
  return "/" + segments.filter(Boolean).join("/");
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Regex source for one pattern: `:param` is one segment, `:param?` an optional one, `*` the rest. */
export function patternRegex(pattern: string): string {
  const segments = pattern.split("/").filter(Boolean);
  let source = "";
  for (const segment of segments) {
    if (segment === "*") source += "(?:/.*)?";
    else if (/^:[\w-]+\?$/.test(segment)) source += "(?:/[^/]+)?";
    else if (segment.startsWith(":")) source += "/[^/]+";
    else if (segment.endsWith("?")) source += `(?:/${escapeRegex(segment.slice(0, -1))})?`;
    else source += "/" + escapeRegex(segment);
  }
  return `^${source}/?$`;
}

/**
 * React Router's ranking, simplified: static segments outrank dynamic ones,
 * which outrank a splat. Ties keep config order.
 */
function rankPattern(pattern: string): number {
  let score = 0;
  for (const segment of pattern.split("/").filter(Boolean)) {
    if (segment === "*") score -= 2;
    else if (segment.startsWith(":")) score += 3;
    else score += 10;
  }
  return score;
}

/**
 * One pattern per distinct URL shape that renders a page, best rank first.
 * Layout routes without a path of their own collapse into their children's
 * patterns; a splat's regex excludes every better-ranked pattern, so at most
 * one regex matches any pathname (Sentry's browser SDK relies on that).
 */
export function routePatterns(routes: Record<string, RouteDefinition>): RoutePattern[] {
  const byPattern = new Map<string, string>();
  const hasChildren = new Set(Object.values(routes).map((route) => route.parentId));
  for (const route of Object.values(routes)) {
    // A route with children only matches on its own through an index child.
    if (hasChildren.has(route.id) && !route.index) continue;
    const pattern = fullPath(route, routes);
    if (!byPattern.has(pattern)) byPattern.set(pattern, route.id);
  }
  const sorted = [...byPattern.entries()]
    .map(([pattern, id]) => ({ id, pattern, regex: patternRegex(pattern) }))
    .sort((a, b) => rankPattern(b.pattern) - rankPattern(a.pattern));
  return sorted.map((entry, position) => {
    if (!entry.pattern.includes("*")) return entry;
    const better = sorted.slice(0, position).map((other) => other.regex.slice(1, -1));
    if (better.length === 0) return entry;
    return { ...entry, regex: `^(?!(?:${better.join("|")})$)${entry.regex.slice(1)}` };
  });
}

// Where the framework's single-fetch URLs differ (Remix 2 and React Router 7 against 8).
export { pagePathOfDataUrl } from "./data-url";
