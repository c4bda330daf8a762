import diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";

/**
 * Adapter (server/adapter/README.md): the SDK's HTTP server instrumentation
 * (`@sentry/core`'s server subscription, which `@sentry/node`'s HTTP
 * integration installs) wraps each server's `emit("request")` and handles a
 * request once: one already marked with this registered symbol passes
 * through untouched, with no isolation scope, request data, trace or span.
 * Node publishes `http.server.request.start` before the server emits the
 * request, so a subscriber decides first and marks the requests the SDK
 * should leave alone: the ones not traced (app/monitoring/request-trace.server.ts).
 * Guarded by sentry-request-bypass.test.ts (a real SDK and server).
 */
export const SENTRY_HANDLED = Symbol.for("sentry_http_server_instrumented");
const REQUEST_START = "http.server.request.start";

/**
 * Marks `request` when `traced` says it is not traced. A subscriber that
 * throws would end the process (the channel rethrows on the next tick), so a
 * request `traced` cannot decide is left to the SDK, which handles it as it
 * would without this.
 */
export function markUnlessTraced(
  traced: (request: IncomingMessage) => boolean,
  request: IncomingMessage,
): void {
  let untraced = false;
  try {
    untraced = !traced(request);
  } catch {
    // Left to the SDK.
  }
  if (untraced) (request as IncomingMessage & Record<symbol, unknown>)[SENTRY_HANDLED] = true;
}

/** Calls `traced` for every request a server of this process receives; marks those it says no to. */
export function bypassSentryUnlessTraced(traced: (request: IncomingMessage) => boolean): () => void {
  const onStart = (message: unknown) =>
    markUnlessTraced(traced, (message as { request: IncomingMessage }).request);
  diagnosticsChannel.subscribe(REQUEST_START, onStart);
  return () => void diagnosticsChannel.unsubscribe(REQUEST_START, onStart);
}
