import type { Server } from "node:http";
import { getLogger } from "~/logging/logger.server";
import { startDraining } from "./pre-app/readiness";

/** Drain delay, in-flight grace, Sentry flush: the orchestrator's grace exceeds all three (decision 0040). */

export const SHUTDOWN_GRACE_MS = 10_000;
export const SENTRY_FLUSH_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** On Remix 2 the framework's CLI also closes its server on the signal: the boot passes a closer that takes over. */
export interface ServerCloser {
  takeOver?(servers: Iterable<Server>): void;
  close(server: Server, done: () => void): void;
}

const OWN_CLOSE: ServerCloser = { close: (server, done) => void server.close(() => done()) };

function drain(server: Server, closer: ServerCloser): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    closer.close(server, resolve);
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    sweep.unref();
    server.once("close", () => clearInterval(sweep));
  });
}

/** A second signal finds no handler and ends the process at once, as a second Ctrl-C should. */
export function installGracefulShutdown(
  servers: Iterable<Server>,
  {
    drainDelayMs,
    flushSentry,
    closer = OWN_CLOSE,
  }: {
    drainDelayMs: number;
    flushSentry: (timeoutMs: number) => Promise<boolean>;
    closer?: ServerCloser;
  },
) {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const started = performance.now();
    startDraining();
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
