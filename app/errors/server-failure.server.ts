import { isRouteErrorResponse } from "@remix-run/react";
import { getLogger } from "~/logging/logger.server";
import { captureServerError } from "~/monitoring/sentry.server";
import { routePatternOf } from "~/routing/request-route.server";
import { createDigest } from "./digest";
import { reportedCause } from "./reported-cause.server";
import { isThrownData, responseError, statusOfThrownData, thrownDataError } from "./thrown-response.server";
import { recordDigest, requestedPath, currentOrNewRequestId } from "~/request-scope.server";

/**
 * Every server failure: a digest for the page, one log line, one Sentry event,
 * both naming the cause without private values (reported-cause.server.ts).
 * The build's `handleError` (server/data-functions/wrapped-server-build.ts).
 */
export function handleServerError(error: unknown, { request }: { request: Request }): void | Promise<void> {
  // A client that went away aborts its loaders; that is not a fault of ours.
  if (request.signal.aborted || isExpected(error)) return;
  if (error instanceof Response)
    return responseError(error).then((cause) => report(cause, request, error.status));
  if (isThrownData(error)) return report(thrownDataError(error), request, statusOfThrownData(error));
  if (isRouteErrorResponse(error) && !("error" in error && error.error)) {
    return report(thrownDataError({ data: error.data, init: error }), request, error.status);
  }
  const cause = isRouteErrorResponse(error) && "error" in error ? error.error : error;
  report(reportedCause(cause), request, undefined);
}

function isExpected(error: unknown): boolean {
  if (isThrownData(error)) return statusOfThrownData(error) < 500;
  return (isRouteErrorResponse(error) || error instanceof Response) && error.status < 500;
}

function report(cause: Error, request: Request, status: number | undefined): void {
  const digest = createDigest();
  recordDigest(digest);
  const url = new URL(request.url);
  const requestId = currentOrNewRequestId();
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
