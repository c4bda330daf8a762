import { getLogger } from "./logger.server";
import { flushServerSentry } from "./sentry.server";

/** In-flight requests get this long to finish after SIGTERM/SIGINT. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** Sentry gets this long to send what it has buffered. */
export const SENTRY_FLUSH_MS = 2_000;

/**
 * Graceful shutdown on SIGTERM and SIGINT. remix-serve's own handler stops
 * accepting connections (`server.close()`), and the process ends by itself
 * once in-flight requests have finished. This adds what it lacks: Sentry is
 * flushed, and a deadline ends the process with exit code 0 if requests or
 * idle keep-alive sockets hold it open for longer than the grace period.
 */
export function installGracefulShutdown(): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      getLogger().info({ signal, graceMs: SHUTDOWN_GRACE_MS }, "shutting down");
      void flushServerSentry(SENTRY_FLUSH_MS);
      setTimeout(() => {
        void flushServerSentry(SENTRY_FLUSH_MS).finally(() => process.exit(0));
      }, SHUTDOWN_GRACE_MS).unref();
    });
  }
}
