import type { Server } from "node:http";
import { getLogger } from "./logger.server";
import { flushServerSentry } from "./sentry.server";
import { SENTRY_FLUSH_MS, SHUTDOWN_GRACE_MS } from "./shutdown-timing";

/** Resolves when `server` has no connections left, closing idle keep-alive ones as requests finish. */
function drain(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    // Keep-alive connections stay open between requests; close each one as soon as it is idle.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    sweep.unref();
    server.once("close", () => clearInterval(sweep));
    server.closeIdleConnections();
  });
}

/**
 * Graceful shutdown on SIGTERM and SIGINT: stop accepting connections, let
 * in-flight requests finish (at most SHUTDOWN_GRACE_MS), flush Sentry (at most
 * SENTRY_FLUSH_MS), exit 0. remix-serve's own handler only closes the server,
 * which leaves keep-alive connections and Sentry's buffer to chance.
 */
export function installGracefulShutdown(servers: Iterable<Server>): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    getLogger().info({ signal, graceMs: SHUTDOWN_GRACE_MS }, "shutting down");
    const deadline = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
    await Promise.race([Promise.all([...servers].map(drain)), deadline]);
    await flushServerSentry(SENTRY_FLUSH_MS);
    process.exit(0);
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void stop(signal));
}
