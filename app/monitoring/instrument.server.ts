/**
 * Runs before remix-serve loads the app (see instrument.server.mjs): checks
 * the environment, starts Sentry, makes stdout JSON lines, logs one start
 * line, installs the shutdown handler, and puts the few handlers that must
 * answer before the app (method guard, Sentry tunnel) in front of Express.
 *
 * Keep the imports here to what starting needs: Sentry's OpenTelemetry
 * instrumentations (database clients, fetch) only see modules loaded after
 * it starts, so nothing of the app may load first. Remix's loaders and
 * actions are instrumented by wrapping `createRequestHandler`
 * (remix-spans.server.ts), which only has to happen before remix-serve calls it.
 */
import { instanceName, parseEnv } from "~/env.server";
import { getLogger } from "./logger.server";
import { flushServerSentry, initServerSentry } from "./sentry.server";
import { answerReadiness, installGracefulShutdown } from "./shutdown.server";
import { installAccessLineFormat, installJsonStdout } from "./stdout-json.server";
import { createTunnelHandler } from "./tunnel.server";
import { trustFunction } from "~/utils/trust-proxy.server";
import {
  httpServers,
  installFrontHandlers,
  refuseMalformedPaths,
  refuseUnsupportedMethods,
  type FrontHandler,
} from "~/utils/http-front.server";

function validatedEnv() {
  try {
    return parseEnv(process.env);
  } catch (error) {
    // One line that names the variable, and no stack: this is a configuration mistake.
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

// Nothing reads the environment while modules load, so this check comes first.
const env = validatedEnv();
const trust = trustFunction(env.TRUST_PROXY);
initServerSentry(env);
installJsonStdout(instanceName(env));
installAccessLineFormat(trust);
installGracefulShutdown(httpServers, {
  drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
  flushSentry: flushServerSentry,
});
installFrontHandlers(
  [
    answerReadiness, // first: while draining, every response says Connection: close
    refuseUnsupportedMethods,
    refuseMalformedPaths,
    ...((env.SENTRY_TUNNEL_ROUTE && env.SENTRY_DSN
      ? [createTunnelHandler({ route: env.SENTRY_TUNNEL_ROUTE, dsn: env.SENTRY_DSN, trust })]
      : []) satisfies FrontHandler[]),
  ],
  { trust },
);
getLogger().info(
  {
    port: Number(process.env.PORT) || 3000,
    mode: env.NODE_ENV,
    sentry: Boolean(env.SENTRY_DSN),
    tunnel: (env.SENTRY_DSN && env.SENTRY_TUNNEL_ROUTE) || false,
    feedback: env.SENTRY_FEEDBACK === "on",
    release: env.SENTRY_RELEASE ?? null,
    tracesSampleRate: env.SENTRY_DSN ? env.SENTRY_TRACES_SAMPLE_RATE : 0,
    drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
    trustProxy: env.TRUST_PROXY ?? false,
  },
  "starting",
);
