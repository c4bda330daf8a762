import { isRouteErrorResponse } from "@remix-run/react";
import { refuseRequest, type Refusal } from "~/refusals.server";
import type { ErrorHandler } from "../data-functions/wrap";

/** Adapter (server/adapter/README.md): the framework's refusals reach `handleError` classless, told apart here. */
const CROSS_ORIGIN =
  /^(?:(?:host|x-forwarded-host) header does not match `origin` header|`x-forwarded-host` or `host` headers are not provided\. One of these is needed to compare the `origin` header|The `request\.url` origin does not match `origin` header) from a forwarded action request\. Aborting the action\.$/;
const INVALID_ORIGIN = "`origin` header is not a valid URL. Aborting the action.";
const LEGACY_DATA_REQUEST = "Warning: Single fetch-enabled apps should not be making ?_data requests";
/** React Router 8's single fetch hands `handleError` a bare Error of this message for its CSRF check. */
const SINGLE_FETCH_CSRF = "Bad Request";

export function refusingHandleError(handleError: ErrorHandler | undefined): ErrorHandler {
  return (error, args) => {
    const refusal = frameworkRefusal(error, args.request);
    if (refusal) return refuseRequest(args.request, refusal);
    return handleError?.(error, args);
  };
}

export function frameworkRefusal(error: unknown, request: Request): Refusal | undefined {
  if (isRouteErrorResponse(error)) {
    if (error.status >= 500) return undefined;
    if (error.status === 405)
      return { status: 405, reason: "method not allowed", headers: { Allow: "GET, HEAD" } };
    return { status: error.status, reason: error.statusText || "refused by the framework" };
  }
  if (!(error instanceof Error)) return undefined;
  if (CROSS_ORIGIN.test(error.message)) return { status: 403, reason: "cross-origin action" };
  if (error.message === INVALID_ORIGIN || isInvalidOrigin(error, request))
    return { status: 400, reason: "malformed Origin header" };
  if (error.message.startsWith(LEGACY_DATA_REQUEST)) return { status: 400, reason: "legacy ?_data request" };
  // Only when the request's Origin would fail that check: an app's own `Error("Bad Request")` stays a failure.
  if (error.message === SINGLE_FETCH_CSRF && Object.getPrototypeOf(error) === Error.prototype) {
    const origin = request.headers.get("origin");
    if (origin === null) return undefined;
    // `null`: an opaque origin (a sandboxed frame, a cross-site redirect), never this site.
    if (origin === "null") return { status: 403, reason: "cross-origin action" };
    const parsed = URL.parse(origin);
    if (!parsed) return { status: 400, reason: "malformed Origin header" };
    if (parsed.origin !== new URL(request.url).origin) return { status: 403, reason: "cross-origin action" };
  }
  return undefined;
}

function isInvalidOrigin(error: Error, request: Request): boolean {
  const { code, input } = error as Error & { code?: unknown; input?: unknown };
  return code === "ERR_INVALID_URL" && input === request.headers.get("origin");
}
