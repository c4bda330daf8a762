import type { Server } from "node:http";
import type { PreAppHandler } from "./pre-app/handler";
import { getLogger } from "~/logging/logger.server";
import { pathOf, READINESS_PATH } from "~/http/operational-paths";

/**
 * Graceful shutdown in three timed steps, whose sum the orchestrator's grace
 * must exceed (docs/decisions/0040-readiness-and-drain-delay.md):
 * 1. drain delay (SIGTERM only): readiness fails but the server still serves,
 *    so requests a balancer sends before it notices are not refused;
 * 2. in-flight grace: no new connections, running requests finish;
 * 3. Sentry flush; then exit 0.
 */

/** In-flight requests get this long to finish once the server stops accepting. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** Sentry gets this long to send what it has buffered. */
export const SENTRY_FLUSH_MS = 2_000;

/** True from the first SIGTERM/SIGINT on. */
let draining = false;

/**
 * `/readyz`: 503 once shutdown began. While draining every response says
 * `Connection: close`, so pooled connections reconnect elsewhere. Liveness
 * (`/healthz`) stays 200: the process is fine, it just should not get new work.
 */
export const answerReadiness: PreAppHandler = (request, response) => {
  if (draining) response.setHeader("Connection", "close");
  if (pathOf(request.url ?? "/") !== READINESS_PATH) return false;
  response.writeHead(draining ? 503 : 200, {
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
  });
  response.end(draining ? "draining" : "ready");
  return true;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * How the servers stop accepting. By default each server's own `close`: the
 * app's own server (React Router 8) is closed by nothing else. On Remix 2,
 * the framework's CLI closes its server on the same signal, so the boot passes the
 * adapter's (server/adapter/server-close.ts), which takes that call over first.
 */
export interface ServerCloser {
  /** Called once when shutdown starts, before the drain delay. */
  takeOver?(servers: Iterable<Server>): void;
  /** Stops accepting and calls `done` once every connection ended. */
  close(server: Server, done: () => void): void;
}

const OWN_CLOSE: ServerCloser = { close: (server, done) => void server.close(() => done()) };

/** Resolves when `server` has no connections left, closing idle keep-alive ones as requests finish. */
function drain(server: Server, closer: ServerCloser): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    closer.close(server, resolve);
    // Keep-alive connections stay open between requests; close each one as soon as it is idle.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    sweep.unref();
    server.once("close", () => clearInterval(sweep));
  });
}

/**
 * The drain delay applies to SIGTERM (an orchestrator), not SIGINT (Ctrl-C). A
 * second signal finds no handler and ends the process at once, as a second Ctrl-C should.
 */
export function installGracefulShutdown(
  servers: Iterable<Server>,
  {
    drainDelayMs,
    flushSentry,
    closer = OWN_CLOSE,
  }: {
    drainDelayMs: number;
    /** Sends what Sentry buffered within the time given; true when all went out. */
    flushSentry: (timeoutMs: number) => Promise<boolean>;
    /** How the servers stop accepting (default: their own `close`). */
    closer?: ServerCloser;
  },
) {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const started = performance.now();
    draining = true;
    // On Remix 2, the framework CLI's own handler for the same signal runs right after this one.
    closer.takeOver?.(servers);
    const delayMs = signal === "SIGTERM" ? drainDelayMs : 0;
    const logger = getLogger();
    logger.info(
      { signal, drainDelayMs: delayMs, graceMs: SHUTDOWN_GRACE_MS, flushMs: SENTRY_FLUSH_MS },
      "shutting down",
    );
    await sleep(delayMs);
    const inFlightFinished = await Promise.race([
      Promise.all([...servers].map((server) => drain(server, closer))).then(() => true),
      sleep(SHUTDOWN_GRACE_MS).then(() => false),
    ]);
    const sentryFlushed = await flushSentry(SENTRY_FLUSH_MS);
    logger.info(
      { inFlightFinished, sentryFlushed, durationMs: Math.round(performance.now() - started) },
      "shut down",
    );
    process.exit(0);
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void stop(signal));
}
