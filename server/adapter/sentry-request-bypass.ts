import diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";

/**
 * Adapter (server/adapter/README.md): the SDK's HTTP instrumentation passes a
 * request already marked with this symbol through untouched. Node publishes
 * `http.server.request.start` before the server emits the request, so a
 * subscriber marks the untraced ones first (app/monitoring/request-trace.server.ts).
 */
export const SENTRY_HANDLED = Symbol.for("sentry_http_server_instrumented");
const REQUEST_START = "http.server.request.start";

/**
 * Marks `request` when `traced` says it is not traced. A subscriber that throws
 * would end the process, so a request `traced` cannot decide is left to the SDK.
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
