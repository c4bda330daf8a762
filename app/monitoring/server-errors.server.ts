import { isRouteErrorResponse } from "@remix-run/react";
import { createDigest } from "./digest";
import { getLogger } from "./logger.server";
import { requestIdFor, routePatternOf } from "./request-context.server";
import { captureServerError } from "./sentry.server";

/**
 * The one path every unexpected server error takes (Remix calls it as
 * `handleError` for loaders, actions and rendering, for document, `.data` and
 * form-post requests alike): it gets a digest, one log line with the stack,
 * and one Sentry event tagged with the digest.
 */
const digests = new WeakMap<Request, string>();

/** The digest of the first unexpected error of `request`, if it had one. */
export function digestFor(request: Request): string | undefined {
  return digests.get(request);
}

/**
 * Not faults of the server: Remix's internal 4xx answers (405 for a missing
 * action, 404 for a missing route…), and the warning Remix raises when a
 * client sends a legacy `?_data` request (answered 400 by `handleDataRequest`).
 */
function isExpected(error: unknown): boolean {
  if (isRouteErrorResponse(error)) return error.status < 500;
  return (
    error instanceof Error &&
    error.message.startsWith("Warning: Single fetch-enabled apps should not be making ?_data requests")
  );
}

export function handleServerError(error: unknown, { request }: { request: Request }): void {
  // A client that went away aborts its loaders; that is not a fault of ours.
  if (request.signal.aborted || isExpected(error)) return;
  const cause = isRouteErrorResponse(error) && "error" in error && error.error ? error.error : error;

  const digest = createDigest();
  if (!digests.has(request)) digests.set(request, digest);

  const url = new URL(request.url);
  const requestId = requestIdFor(request);
  getLogger().error(
    {
      digest,
      requestId,
      method: request.method,
      path: url.pathname,
      route: routePatternOf(url),
      err: cause,
    },
    "unexpected server error",
  );
  captureServerError(cause, { digest, requestId, request });
}
