import patterns from "virtual:route-patterns";
import { matchRoutePattern } from "~/routing/route-pattern-matcher";

/**
 * The route pattern of the page at `pathname` (`/fixtures/items/:id`), for the
 * names browser errors carry: the one place the error reporting asks for it,
 * so a better source of the pattern needs changing only here.
 */
export function pageRoutePattern(pathname: string): string | undefined {
  return matchRoutePattern(pathname, patterns);
}
