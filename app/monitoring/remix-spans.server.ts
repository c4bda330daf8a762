import { serverSdk } from "./server-sdk.server";

/**
 * Loader and action spans, in place of `@sentry/remix`'s server
 * instrumentation, which costs every request, sampled or not (docs/decisions/0051):
 * a span only when the loader runs inside a traced request's span.
 */
export function withDataFunctionSpan<T>(kind: "loader" | "action", routeId: string, run: () => T): T {
  // Sentry off, or an untraced request (no recording span): the loader then
  // runs as if unwrapped.
  const Sentry = serverSdk()?.node;
  if (!Sentry?.getActiveSpan()?.isRecording()) return run();
  return Sentry.startSpan(
    {
      name: routeId,
      op: `${kind}.remix`,
      attributes: { "sentry.origin": "auto.function.remix", "code.function": kind },
    },
    run,
  );
}
