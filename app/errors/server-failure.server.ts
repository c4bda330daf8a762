import { isRouteErrorResponse } from "@remix-run/react";
import { getLogger } from "~/logging/logger.server";
import { captureServerError } from "~/monitoring/sentry.server";
import { routePatternOf } from "~/routing/request-route.server";
import { createDigest } from "./digest";
import { recordDigest, requestedPath, requestIdFor } from "~/request-scope.server";

/**
 * The one path every server failure takes: a digest (shown on the page), one
 * log line with the stack, one Sentry event tagged with digest and request id.
 * The framework calls it as `handleError`; server/data-functions.ts calls it for
 * thrown 5xx Responses, which the framework hands to nobody.
 */
export function handleServerError(error: unknown, { request }: { request: Request }): void | Promise<void> {
  // A client that went away aborts its loaders; that is not a fault of ours.
  if (request.signal.aborted || isExpected(error)) return;
  if (error instanceof Response)
    return responseCause(error).then((cause) => report(cause, request, error.status));
  const cause = isRouteErrorResponse(error) && "error" in error && error.error ? error.error : error;
  report(cause, request, undefined);
}

/** Not faults of the server: thrown 4xx Responses and 4xx route error responses. */
function isExpected(error: unknown): boolean {
  return (isRouteErrorResponse(error) || error instanceof Response) && error.status < 500;
}

/** A thrown 5xx Response, as the error that is logged and reported. */
class ThrownResponse extends Error {
  override name = "ThrownResponse";
}

/** A thrown Response as an Error: its body says what went wrong ("Upstream said no"). */
async function responseCause(response: Response): Promise<Error> {
  // A clone leaves Remix's copy of the body unread.
  const text = await response
    .clone()
    .text()
    .catch(() => "");
  return new ThrownResponse(text.slice(0, 1_000) || response.statusText || `${response.status} Response`);
}

function report(cause: unknown, request: Request, status: number | undefined): void {
  const digest = createDigest();
  recordDigest(digest);
  const url = new URL(request.url);
  const requestId = requestIdFor(request);
  const route = routePatternOf(url);
  getLogger().error(
    {
      digest,
      requestId,
      method: request.method,
      path: requestedPath(request),
      route,
      status,
      err: cause,
    },
    "unexpected server error",
  );
  captureServerError(cause, { digest, requestId, request, route });
}
