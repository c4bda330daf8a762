import { getEnv, loadEnvFile, sentryIsOn, type Env } from "~/env.server";
import { listeningOn } from "~/http/trace-propagation-targets.server";
import { getLogger } from "~/logging/logger.server";

/** A bad variable ends the process with one line naming it, written here: the logger needs the environment. */
export function checkedEnvironment(): { envFile: string | null; env: Env } {
  try {
    return { envFile: loadEnvFile(), env: getEnv() };
  } catch (error) {
    // No stack: a configuration mistake, not a failure.
    const message = error instanceof Error ? error.message : String(error);
    if (process.env.NODE_ENV === "development") console.error(message);
    else {
      const line = { level: "fatal", time: new Date().toISOString(), msg: `cannot start: ${message}` };
      process.stdout.write(JSON.stringify(line) + "\n");
    }
    process.exit(1);
  }
}

/** Secrets left out. */
export function logStarting(env: Env, envFile: string | null): void {
  getLogger().info(
    {
      port: env.PORT,
      mode: env.NODE_ENV,
      envFile,
      sentry: sentryIsOn(env),
      spotlight: env.SENTRY_SPOTLIGHT ?? false,
      tunnel: (env.SENTRY_DSN && env.SENTRY_TUNNEL_ROUTE) || false,
      feedback: env.SENTRY_FEEDBACK === "on",
      release: env.SENTRY_RELEASE ?? null,
      tracesSampleRate: sentryIsOn(env) ? env.SENTRY_TRACES_SAMPLE_RATE : 0,
      tracesPerSecond: env.SENTRY_TRACES_PER_SECOND,
      drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
      trustProxy: env.TRUST_PROXY ?? false,
      bodySizeLimit: env.BODY_SIZE_LIMIT,
    },
    "starting",
  );
}

/** With `PORT=0` the trace targets learn the port only now, and remix-serve's banner names 0. */
export function logListening(env: Env, port: number): void {
  listeningOn(port);
  if (env.PORT === 0) getLogger().info({ url: `http://${env.HOST ?? "localhost"}:${port}` }, "listening");
}

export function cannotStart(msg: string, fields: Record<string, unknown> = {}): never {
  getLogger().fatal(fields, `cannot start: ${msg}`);
  process.exit(1);
}

export function exitOnListenError(error: NodeJS.ErrnoException & { port?: number; address?: string }): never {
  const { code, port, address } = error;
  const where = { code, port, host: address };
  if (code === "EADDRINUSE")
    cannotStart(`port ${port} is in use: stop what uses it, or set PORT to another`, where);
  if (code === "EACCES")
    cannotStart(`port ${port} needs privileges this user lacks: set PORT to 1024 or above`, where);
  if (code === "EADDRNOTAVAIL")
    cannotStart(`${address} is no address of this machine: set HOST to one`, where);
  cannotStart(`cannot listen on port ${port ?? "?"}: ${error.message}`, where);
}
