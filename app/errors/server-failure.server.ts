import { isRouteErrorResponse } from "@remix-run/react";
import { getLogger } from "~/logging/logger.server";
import { keysForMessage, keysOf, kindOf, maskPrivateText } from "~/privacy/masking";
import { untracedTrace } from "~/monitoring/request-trace.server";
import { serverTransactionName } from "~/monitoring/request-spans.server";
import { serverSdk } from "~/monitoring/server-sdk.server";
import { routePatternOf } from "~/routing/request-route.server";
import {
  currentIncomingRequest,
  currentOrNewRequestId,
  recordDigest,
  requestedPath,
} from "~/request-scope.server";

/** Our own failures: one digest, log line and event each, the cause without private values (docs/errors.md). */

export function handleServerError(error: unknown, { request }: { request: Request }): void {
  // A client that went away aborts its loaders; a 4xx is an answer, not a fault of ours.
  if (request.signal.aborted) return;
  if ((isRouteErrorResponse(error) || error instanceof Response) && error.status < 500) return;
  const cause = isRouteErrorResponse(error) && "error" in error && error.error ? error.error : error;
  reportServerFailure(reportedCause(cause), request);
}

export function reportServerFailure(
  cause: Error,
  request: Request,
  { status, answer }: { status?: number; answer?: object } = {},
): void {
  const digest = createDigest();
  recordDigest(digest);
  const requestId = currentOrNewRequestId();
  const url = new URL(request.url);
  const route = routePatternOf(url);
  const path = requestedPath(request);
  getLogger().error(
    { digest, requestId, method: request.method, path, route, status, err: cause },
    "unexpected server error",
  );
  const sdk = serverSdk();
  if (!sdk) return;
  sdk.node.withScope((scope) => {
    // The SDK's HTTP integration gives a traced request its request data; an untraced one's is read only now.
    const incoming = untracedTrace() && currentIncomingRequest();
    if (incoming)
      scope.setSDKProcessingMetadata({ normalizedRequest: sdk.core.httpRequestToRequestData(incoming) });
    scope.setTag("digest", digest);
    scope.setTag("request_id", requestId);
    if (answer) scope.setContext("thrown_response", { ...answer });
    scope.setTransactionName(serverTransactionName(request.method, url, route));
    // A hint that also carries tags is read as scope data and the mechanism is dropped.
    sdk.node.captureException(cause, {
      mechanism: { type: "auto.function.remix.server", handled: false, data: { function: "handleError" } },
    });
  });
}

/** Short enough to read aloud, safe to grep. */
export function createDigest(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export class ThrownValue extends Error {
  override name = "ThrownValue";
}

/** Node's system errors say what failed in these; none holds a user's data. */
const KEPT_FIELDS = new Set(["code", "errno", "syscall"]);
const MAX_CAUSES = 5;
const WRITABLE = { writable: true, configurable: true };

/** An Error's own fields by name only, its message and stack masked; a thrown non-Error described by shape. */
export function reportedCause(thrown: unknown, depth = 0): Error {
  if (!(thrown instanceof Error)) {
    const error = new ThrownValue(describeThrownValue(thrown));
    error.stack = `${error.name}: ${error.message}`; // The frames would be ours, not the thrower's.
    return error;
  }
  // A real Error of the same prototype: the SDK's `type` and pino's read its class.
  const masked = Object.setPrototypeOf(new Error(), Object.getPrototypeOf(thrown) as object) as Error;
  const define = (key: string, value: unknown) =>
    Object.defineProperty(masked, key, { ...WRITABLE, value, enumerable: key !== "stack" });
  define("message", maskPrivateText(String(thrown.message ?? "")));
  if (typeof thrown.stack === "string") {
    // The message in the stack's first lines, before its frames.
    const frames = thrown.stack.search(/\n\s+at /);
    const head = frames < 0 ? thrown.stack : thrown.stack.slice(0, frames);
    define("stack", maskPrivateText(head) + (frames < 0 ? "" : thrown.stack.slice(frames)));
  }
  if (Object.hasOwn(thrown, "name")) define("name", thrown.name);
  const fields: string[] = [];
  for (const [key, value] of Object.entries(thrown)) {
    if (key === "message" || key === "stack" || key === "name" || key === "cause") continue;
    if (KEPT_FIELDS.has(key) && (typeof value === "string" || typeof value === "number")) define(key, value);
    else fields.push(key);
  }
  if (fields.length) define("fields", keysOf(Object.fromEntries(fields.map((key) => [key, 0]))));
  if ("cause" in thrown && thrown.cause !== undefined && depth < MAX_CAUSES)
    define("cause", reportedCause(thrown.cause, depth + 1));
  return masked;
}

/** In the SDK's words ("Object captured as exception with keys: …", @sentry/core's eventbuilder). */
function describeThrownValue(value: unknown): string {
  const kind = kindOf(value);
  if (typeof value !== "object" || value === null) return `${kind} captured as exception`;
  return `${kind === "Object" ? "Object" : `'${kind}'`} captured as exception with keys: ${keysForMessage(keysOf(value))}`;
}
