/**
 * The boot: runs before remix-serve loads the app (boot.mjs imports it, built
 * as boot.js) and before Vite's dev server under `npm run dev` (server/dev/start.ts):
 *  1. the env file and the environment check (one line naming a bad variable, exit 1);
 *  2. Sentry, so its instrumentation is in place before anything it watches loads;
 *  3. through the adapter (adapter/README.md): JSON stdout, the pre-app handlers,
 *     the graceful shutdown. Loaders and actions are wrapped in data-functions/wrapped-server-build.ts;
 *  4. one `starting` line.
 * Keep the imports to what starting needs: nothing of the app may load first.
 */
import { instanceName, type Env } from "~/env.server";
import { flushServerSentry, initServerSentry, requestTraceDecider } from "~/monitoring/sentry.server";
import { trustFunction } from "~/http/trust-proxy.server";
import { trustRequestIdsFrom } from "~/request-scope.server";
import { installPreAppHandlers } from "./adapter/http-server";
import { bypassSentryUnlessTraced } from "./adapter/sentry-request-bypass";
import { closeServer, disarmClose } from "./adapter/server-close";
import { installAccessLineFormat, installJsonStdout } from "./adapter/stdout";
import { preAppHandlers } from "./pre-app/chain";
import { installJsonStderr } from "./json-stderr";
import { installGracefulShutdown } from "./shutdown";
import { checkedEnvironment, exitOnListenError, logStarting } from "./starting";

async function boot(): Promise<Env> {
  const { envFile, env } = checkedEnvironment();
  const trust = trustFunction(env.TRUST_PROXY);
  trustRequestIdsFrom(trust);
  await initServerSentry(env);
  // Untraced requests skip the SDK's per-request work.
  const traced = requestTraceDecider(env);
  if (traced) bypassSentryUnlessTraced(traced);
  // remix-serve's banner and access lines become JSON, and so does whatever
  // else writes plain text (Express's stacks on stderr); under `npm run dev` the
  // logger is pretty and Vite's lines stay as Vite prints them (server/dev/start.ts).
  if (env.NODE_ENV !== "development") {
    installJsonStdout(instanceName(env));
    installJsonStderr(instanceName(env));
    installAccessLineFormat(trust);
  }
  const httpServers = installPreAppHandlers(preAppHandlers(env, trust), {
    trust,
    // Vite's dev server handles its own (it tries the next port).
    onListenError: env.NODE_ENV === "development" ? undefined : exitOnListenError,
  });
  installGracefulShutdown(httpServers, {
    drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
    flushSentry: flushServerSentry,
    closer: { takeOver: disarmClose, close: closeServer },
  });
  logStarting(env, envFile);
  return env;
}

/**
 * Settles once the boot is done; boot.mjs and server/dev/start.ts await it. Not a
 * module-level `await`: that needs a newer build target than Vite's default.
 */
export const booted: Promise<Env> = boot();
