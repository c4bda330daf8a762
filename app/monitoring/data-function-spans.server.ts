import { serverSdk } from "./server-sdk.server";

/** Remix 2 has no instrumentation API; `@sentry/remix`'s costs every request (docs/decisions/0051). */
export function withDataFunctionSpan<T>(kind: "loader" | "action", routeId: string, run: () => T): T {
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
