/**
 * Which route pattern serves a pathname (`/fixtures/items/42` → `/fixtures/items/:id`),
 * asked on many requests and every navigation: its cost must not grow with the
 * number of routes, so patterns are bucketed by their first segment.
 */
import { patternRegex, type RoutePattern } from "./route-patterns";

/** A pattern list compiled for matching: candidates by first segment, each with its position in the list. */
interface Matcher {
  /** Patterns whose first segment is static, by that segment (regexes compare it exactly). */
  byFirstSegment: Map<string, Candidate[]>;
  /** Every other pattern (`/`, a dynamic, optional or splat first segment): always a candidate. */
  always: Candidate[];
}
type Candidate = [position: number, pattern: string, regex: RegExp];

const matchers = new WeakMap<RoutePattern[], Matcher>();

function compileMatcher(patterns: RoutePattern[]): Matcher {
  const matcher: Matcher = { byFirstSegment: new Map(), always: [] };
  patterns.forEach(({ pattern }, position) => {
    // The plain regex, without the splat's exclusion of better patterns: trying
    // candidates in list order already gives every better pattern precedence.
    const candidate: Candidate = [position, pattern, new RegExp(patternRegex(pattern))];
    const first = pattern.split("/").find(Boolean);
    if (first === undefined || first === "*" || first.startsWith(":") || first.endsWith("?")) {
      matcher.always.push(candidate);
    } else {
      const bucket = matcher.byFirstSegment.get(first) ?? [];
      bucket.push(candidate);
      matcher.byFirstSegment.set(first, bucket);
    }
  });
  return matcher;
}

/** The first pattern in list order whose regex matches `pathname`, trying only those that can. */
export function matchRoutePattern(pathname: string, patterns: RoutePattern[]): string | undefined {
  let matcher = matchers.get(patterns);
  if (!matcher) {
    matcher = compileMatcher(patterns);
    matchers.set(patterns, matcher);
  }
  const end = pathname.indexOf("/", 1);
  const first = pathname.startsWith("/") ? pathname.slice(1, end === -1 ? undefined : end) : undefined;
  const bucket = (first && matcher.byFirstSegment.get(first)) || [];
  const { always } = matcher;
  // Both lists are in list order: merged, they are the candidates in list order.
  for (let a = 0, b = 0; a < always.length || b < bucket.length;) {
    const next =
      b < bucket.length && (a >= always.length || bucket[b]![0] < always[a]![0])
        ? bucket[b++]!
        : always[a++]!;
    if (next[2].test(pathname)) return next[1];
  }
  return undefined;
}
