/** Runs before the app's server and React Router load, so Sentry is in place first; imports only what starting needs. */
import type { Server } from "node:http";
import { instanceName, type Env } from "~/env.server";
import { initServerSentry } from "~/monitoring/server-init.server";
import type { AppServerOptions } from "./app-server";
import { bypassSentryUnlessTraced } from "./adapter/sentry-request-bypass";
import { loadServerModulesFirst } from "./adapter/server-modules-first";
import { installJsonStderr } from "./json-stderr";
import { installJsonStdout } from "./json-stdout";
import { checkedEnvironment, exitOnListenError, logStarting } from "./starting";

async function boot(): Promise<Env> {
  const { envFile, env } = checkedEnvironment();
  // Express's stacks, Node's warnings and `console.*` too (not under `npm run dev`).
  if (env.NODE_ENV !== "development") {
    installJsonStdout(instanceName(env));
    installJsonStderr(instanceName(env));
  }
  if (env.NODE_ENV !== "development") await loadServerModulesFirst();
  const traced = await initServerSentry(env);
  if (traced) bypassSentryUnlessTraced(traced);
  logStarting(env, envFile);
  return env;
}

/** Not a module-level `await`: that needs a newer build target than Vite's default. */
export const booted: Promise<Env> = boot();

/** The app's server is loaded only now, so React Router and the build load after Sentry started. */
export async function startServer(
  options: AppServerOptions,
): Promise<{ server: Server; listen: (defaultHost?: string) => Promise<void> }> {
  const env = await booted;
  const { createAppServer, listen } = await import("./app-server");
  const server = await createAppServer(env, options);
  return {
    server,
    listen: (defaultHost) =>
      listen(server, { port: env.PORT, host: env.HOST ?? defaultHost }).catch(exitOnListenError),
  };
}
