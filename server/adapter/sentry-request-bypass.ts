import diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";

/** The SDK passes a request with this mark through; Node publishes the start before emitting the request. */
export const SENTRY_HANDLED = Symbol.for("sentry_http_server_instrumented");
const REQUEST_START = "http.server.request.start";

/** A subscriber that throws would end the process: a request `traced` cannot decide is left to the SDK. */
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

export function bypassSentryUnlessTraced(traced: (request: IncomingMessage) => boolean): () => void {
  const onStart = (message: unknown) =>
    markUnlessTraced(traced, (message as { request: IncomingMessage }).request);
  diagnosticsChannel.subscribe(REQUEST_START, onStart);
  return () => void diagnosticsChannel.unsubscribe(REQUEST_START, onStart);
}
