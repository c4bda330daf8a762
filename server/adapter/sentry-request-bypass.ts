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

/** Calls `traced` for every request a server of this process receives; marks those it says no to. */
export function bypassSentryUnlessTraced(traced: (request: IncomingMessage) => boolean): () => void {
  const onStart = (message: unknown) => {
    const { request } = message as { request: IncomingMessage & Record<symbol, unknown> };
    if (!traced(request)) request[SENTRY_HANDLED] = true;
  };
  diagnosticsChannel.subscribe(REQUEST_START, onStart);
  return () => void diagnosticsChannel.unsubscribe(REQUEST_START, onStart);
}
