import http from "node:http";
import https from "node:https";
import type { Transport } from "@sentry/core";
import type { makeNodeTransport } from "@sentry/node";
import { SENTRY_LIMITS } from "./sentry-options";

/**
 * The server SDK's transport, bounded: each send ends after INGEST_TIMEOUT_MS,
 * and sends pause for INGEST_BACKOFF_MS after a network failure, so an ingest
 * that is down or black-holed costs the app's requests nothing
 * (e2e/faults.spec.ts proves both).
 */

/** How long one send to the ingest may take before it is abandoned. */
const INGEST_TIMEOUT_MS = 5_000;

/**
 * The SDK's HTTP transport waits forever for an ingest that accepts a
 * connection and never answers: its 64-send buffer then stays full and every
 * later event is dropped, even after the ingest recovers. This bounds each send.
 */
function requestWithTimeout(module: typeof http | typeof https) {
  return {
    request(options: http.RequestOptions, callback?: (response: http.IncomingMessage) => void) {
      const request = module.request(options, callback);
      request.setTimeout(INGEST_TIMEOUT_MS, () => request.destroy(new Error("Sentry ingest timed out")));
      return request;
    },
  };
}

/** After a send fails at the network level, sends are skipped this long (the SDK's own rate-limit default). */
const INGEST_BACKOFF_MS = SENTRY_LIMITS.defaultRateLimitBackoffSeconds * 1000;

/**
 * The SDK's transport (`makeTransport`, the SDK's own `makeNodeTransport`), paused for INGEST_BACKOFF_MS after a send fails at
 * the network level (refused, unreachable, timed out): the SDK would otherwise
 * open a new connection for every event and transaction while the ingest is
 * down, which costs the app's requests CPU for nothing. Events during the
 * pause are dropped, as during a rate limit.
 */
export function transportWithBackoff(makeTransport: typeof makeNodeTransport) {
  return (options: Parameters<typeof makeNodeTransport>[0]): Transport => {
    const transport = makeTransport(options);
    let pausedUntil = 0;
    return {
      ...transport,
      send(envelope) {
        if (Date.now() < pausedUntil) return Promise.resolve({});
        return Promise.resolve(transport.send(envelope)).catch((error: unknown) => {
          pausedUntil = Date.now() + INGEST_BACKOFF_MS;
          throw error;
        });
      },
    };
  };
}

/** The HTTP module the SDK sends with: Node's, with the time-out above. */
export function ingestHttpModule(dsn: string) {
  return requestWithTimeout(dsn.startsWith("https:") ? https : http);
}
