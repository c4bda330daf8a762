/**
 * The boot: runs before the app's server exists and before React Router
 * loads the app (server.mjs imports it from the build as
 * `build/server/boot.js`; under `npm run dev`, server/dev/start.ts builds and
 * imports it), in this order:
 *  1. the env file, then the environment check (one line naming a bad variable, exit 1);
 *  2. Sentry, so it is in place before anything it watches runs (with a DSN
 *     only: without one nothing of `@sentry/*` is loaded at all), and, with
 *     Sentry on, the trace decision for each request as it arrives
 *     (adapter/sentry-request-bypass.ts, the one assumption left: adapter/README.md);
 *  3. one `starting` line.
 * Then `startServer` creates the app's own server (app-server.ts), loading
 * it, Express and React Router only now. Keep the imports to what starting
 * needs: nothing of the app may load first.
 */
import type { Server } from "node:http";
import { instanceName, type Env } from "~/env.server";
import { initServerSentry, requestTraceDecider } from "~/monitoring/sentry.server";
import type { AppServerOptions } from "./app-server";
import { bypassSentryUnlessTraced } from "./adapter/sentry-request-bypass";
import { installJsonStderr } from "./json-stderr";
import { checkedEnvironment, exitOnListenError, logStarting } from "./starting";

async function boot(): Promise<Env> {
  const { envFile, env } = checkedEnvironment();
  // Express's stacks and Node's warnings on stderr become JSON lines too (not under `npm run dev`).
  if (env.NODE_ENV !== "development") installJsonStderr(instanceName(env));
  // Loads the SDK only with a DSN: the one wait of the boot.
  await initServerSentry(env);
  // Untraced requests (most, at the default rate) skip the SDK's per-request work.
  const traced = requestTraceDecider(env);
  if (traced) bypassSentryUnlessTraced(traced);
  logStarting(env, envFile);
  return env;
}

/**
 * Settles with the checked environment once the boot is done. Its importer
 * (server.mjs, or server/dev/start.ts) awaits it before anything of the app loads;
 * a module-level `await` would need a newer build target than Vite's default
 * for the server bundle.
 */
export const booted: Promise<Env> = boot();

/**
 * Creates the app's own server (app-server.ts) once the boot is done; `listen`
 * makes it listen on PORT and HOST (unset: `defaultHost`, else every
 * interface), or ends the process with one line saying why it cannot. Loaded only now: Express and React Router load after Sentry started.
 */
export async function startServer(
  options: AppServerOptions,
): Promise<{ server: Server; listen: (defaultHost?: string) => Promise<void> }> {
  const env = await booted;
  const { createAppServer, listen } = await import("./app-server");
  const server = await createAppServer(env, options);
  return {
    server,
    // A busy port or a foreign HOST: one line naming the variable, exit 1.
    listen: (defaultHost) =>
      listen(server, { port: env.PORT, host: env.HOST ?? defaultHost }).catch(exitOnListenError),
  };
}
