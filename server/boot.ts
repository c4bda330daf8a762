/**
 * The boot: runs before remix-serve loads the app (boot.mjs imports it, built
 * as boot.js) and before Vite's dev server under `npm run dev` (server/dev.ts):
 *  1. the env file and the environment check (one line naming a bad variable, exit 1);
 *  2. Sentry, so its instrumentation is in place before anything it watches loads;
 *  3. through the adapter (adapter/README.md): JSON stdout, the pre-app handlers,
 *     the graceful shutdown. Loaders and actions are wrapped in wrapped-server-build.ts;
 *  4. one `starting` line.
 * Keep the imports to what starting needs: nothing of the app may load first.
 */
import { getEnv, instanceName, loadEnvFile, type Env } from "~/env.server";
import { getLogger } from "~/logging/logger.server";
import { flushServerSentry, initServerSentry, requestTraceDecider } from "~/monitoring/sentry.server";
import { refuseLargeBodies } from "./body-limit";
import { installPreAppHandlers } from "./adapter/http-server";
import { bypassSentryUnlessTraced } from "./adapter/sentry-request-bypass";
import { refuseMalformedPaths, refuseUnsupportedMethods, supplyMissingHost } from "./request-guards";
import { boundManifestRequests } from "./manifest-guard";
import { answerReadiness, installGracefulShutdown } from "./shutdown";
import { closeServer, disarmClose } from "./adapter/server-close";
import { setNoSniff } from "./response-headers";
import { installAccessLineFormat, installJsonStdout } from "./adapter/stdout";
import { trustFunction } from "~/http/trust-proxy.server";
import { createTunnelHandler } from "./tunnel";

function checkedEnvironment() {
  try {
    return { envFile: loadEnvFile(), env: getEnv() };
  } catch (error) {
    // One line that names the variable, and no stack: this is a configuration mistake.
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

async function boot(): Promise<Env> {
  const { envFile, env } = checkedEnvironment();
  const trust = trustFunction(env.TRUST_PROXY);
  await initServerSentry(env);
  // Untraced requests skip the SDK's per-request work.
  const traced = requestTraceDecider(env);
  if (traced) bypassSentryUnlessTraced(traced);
  // remix-serve's banner and access lines become JSON; under `npm run dev` the
  // logger is pretty and Vite's lines stay as Vite prints them (server/dev.ts).
  if (env.NODE_ENV !== "development") {
    installJsonStdout(instanceName(env));
    installAccessLineFormat(trust);
  }
  const httpServers = installPreAppHandlers(
    [
      setNoSniff, // first: every response carries it, the pre-app handlers' own answers too
      answerReadiness, // while draining, every response says Connection: close
      refuseUnsupportedMethods,
      refuseMalformedPaths,
      supplyMissingHost,
      refuseLargeBodies(env.BODY_SIZE_LIMIT),
      boundManifestRequests, // rewrites the target of a lazy-discovery request, answers none
      ...(env.SENTRY_TUNNEL_ROUTE && env.SENTRY_DSN
        ? [createTunnelHandler({ route: env.SENTRY_TUNNEL_ROUTE, dsn: env.SENTRY_DSN, trust })]
        : []),
    ],
    { trust },
  );
  installGracefulShutdown(httpServers, {
    drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
    flushSentry: flushServerSentry,
    closer: { takeOver: disarmClose, close: closeServer },
  });
  getLogger().info(
    {
      port: env.PORT,
      mode: env.NODE_ENV,
      envFile,
      sentry: Boolean(env.SENTRY_DSN),
      tunnel: (env.SENTRY_DSN && env.SENTRY_TUNNEL_ROUTE) || false,
      feedback: env.SENTRY_FEEDBACK === "on",
      release: env.SENTRY_RELEASE ?? null,
      tracesSampleRate: env.SENTRY_DSN ? env.SENTRY_TRACES_SAMPLE_RATE : 0,
      drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
      trustProxy: env.TRUST_PROXY ?? false,
      bodySizeLimit: env.BODY_SIZE_LIMIT,
    },
    "starting",
  );
  return env;
}

/**
 * Settles once the boot is done; boot.mjs and server/dev.ts await it. Not a
 * module-level `await`: that needs a newer build target than Vite's default.
 */
export const booted: Promise<Env> = boot();
