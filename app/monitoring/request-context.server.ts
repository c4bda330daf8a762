import patterns, { routeIds } from "virtual:route-patterns";
import { matchRoutePattern } from "./route-pattern-matcher";
import { pagePathOfDataUrl } from "./route-patterns";

/**
 * Per-request facts that logs, Sentry events and response headers share.
 * Keyed by the Request object Remix hands to every server hook of one request
 * (handleError, handleDataRequest, the document renderer).
 */
const requestIds = new WeakMap<Request, string>();

/** A caller's `X-Request-Id` is kept only when it is a short token that is safe to log. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export const REQUEST_ID_HEADER = "X-Request-Id";

export function requestIdFor(request: Request): string {
  let id = requestIds.get(request);
  if (!id) {
    const incoming = request.headers.get(REQUEST_ID_HEADER);
    id = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    requestIds.set(request, id);
  }
  return id;
}

/** The page path a request is about: a `.data` request loads the page without the suffix. */
export function pagePathOf(url: URL): string {
  return pagePathOfDataUrl(url) ?? url.pathname;
}

/** The route pattern that serves `url` (`/fixtures/items/:id`), the catch-all's `/*` for unknown paths. */
export function routePatternOf(url: URL): string | undefined {
  return matchRoutePattern(pagePathOf(url), patterns);
}

const knownRouteIds = new Set(routeIds);

/**
 * True when a single-fetch request names a route that does not exist in
 * `_routes`. Remix would answer 200 with no data; a clear 400 is kinder to
 * whoever sent it, and legitimate revalidations only ever name real routes.
 */
export function namesUnknownRoute(url: URL): boolean {
  const requested = url.searchParams.get("_routes");
  return requested !== null && requested.split(",").some((id) => !knownRouteIds.has(id));
}
