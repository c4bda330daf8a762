import { serverSdk } from "./server-sdk.server";

/**
 * Loader and action spans, in place of `@sentry/remix`'s server
 * instrumentation, which costs every request (sampled or not) two more
 * isolation scopes, a re-read of the request, OpenTelemetry spans for the
 * request and each loader, and a copied Response for the `Server-Timing`
 * header (docs/decisions/0051). Here the request span is the HTTP
 * integration's, created only for requests the server decided to trace
 * (sentry.server.ts), and each loader and action gets a span (`loader.remix`,
 * `action.remix`) when, and only when, it runs inside that span.
 * `server/data-functions.ts` calls this for every loader and action.
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
