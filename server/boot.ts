/** Runs before the app loads, so Sentry is in place before what it watches; imports only what starting needs. */
import type { Server } from "node:http";
import { instanceName, type Env } from "~/env.server";
import { flushServerSentry, initServerSentry } from "~/monitoring/server-init.server";
import { trustFunction } from "~/http/trust-proxy.server";
import { trustRequestIdsFrom } from "~/request-scope.server";
import { lookUpBuiltFilesOnly } from "./adapter/built-file-lookup";
import { adaptRemixServeServer, preAppServer } from "./adapter/http-server";
import { keepNodeFetch } from "./adapter/node-fetch";
import { dropPublicLookup } from "./adapter/public-lookup";
import { bypassSentryUnlessTraced } from "./adapter/sentry-request-bypass";
import { closeServer, disarmClose } from "./adapter/server-close";
import { loadServeModulesFirst } from "./adapter/serve-modules-first";
import { installAccessLineFormat, installRemixJsonStdout } from "./adapter/stdout";
import { preAppHandlers } from "./pre-app/handlers-in-order";
import { installJsonStderr } from "./json-stderr";
import { installGracefulShutdown } from "./shutdown";
import { checkedEnvironment, exitOnListenError, logListening, logStarting } from "./starting";

let adaptAppServer: ((server: Server) => void) | undefined;

async function boot(): Promise<Env> {
  const { envFile, env } = checkedEnvironment();
  const trust = trustFunction(env.TRUST_PROXY);
  trustRequestIdsFrom(trust);
  let staticCreated = () => {};
  if (env.NODE_ENV !== "development") {
    loadServeModulesFirst();
    keepNodeFetch();
    staticCreated = lookUpBuiltFilesOnly();
  }
  const traced = await initServerSentry(env);
  if (traced) bypassSentryUnlessTraced(traced);
  // remix-serve's lines and Express's stacks become JSON; under `npm run dev` Vite's stay as printed.
  if (env.NODE_ENV !== "development") {
    installRemixJsonStdout(instanceName(env));
    installJsonStderr(instanceName(env));
    installAccessLineFormat(trust);
  }
  const appServer = preAppServer(preAppHandlers(env, trust), {
    trust,
    // Vite's dev server handles its own (it tries the next port).
    onListenError: env.NODE_ENV === "development" ? undefined : exitOnListenError,
    onListening: (port) => logListening(env, port),
  });
  if (env.NODE_ENV === "development") adaptAppServer = appServer.adapt;
  else
    adaptRemixServeServer((server) => {
      staticCreated();
      dropPublicLookup(server);
      appServer.adapt(server);
    });
  installGracefulShutdown(appServer.servers, {
    drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
    flushSentry: flushServerSentry,
    closer: { takeOver: disarmClose, close: closeServer },
  });
  logStarting(env, envFile);
  return env;
}

/** Not a module-level `await`: that needs a newer build target than Vite's default. */
export const booted: Promise<Env> = boot();

/** `npm run dev`: the app's server is Vite's, each one `server/dev/start.ts` hands over as Vite creates it. */
export function adaptDevServer(server: Server): void {
  if (!adaptAppServer) throw new Error("adaptDevServer: the boot ran in production, or has not run");
  adaptAppServer(server);
}
