/**
 * How long a graceful shutdown may take, in a module of its own (no imports)
 * so that the deploy checks can give `docker stop` enough time without
 * loading the server's monitoring code. A container runtime must wait at
 * least their sum before it kills the process (README.md, "Deploying").
 */

/** In-flight requests get this long to finish after SIGTERM/SIGINT. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** Sentry gets this long to send what it has buffered. */
export const SENTRY_FLUSH_MS = 2_000;
