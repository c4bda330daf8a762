import { serverSdk } from "./server-sdk.server";

/** In place of `@sentry/remix`'s server instrumentation, which costs every request (docs/decisions/0051). */
export function withDataFunctionSpan<T>(kind: "loader" | "action", routeId: string, run: () => T): T {
  // Sentry off, or an untraced request (no recording span): runs as if unwrapped.
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
