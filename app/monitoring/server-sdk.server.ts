import type * as SentryCore from "@sentry/core";
import type * as SentryCoreServer from "@sentry/core/server";
import type * as SentryNode from "@sentry/node";

/**
 * The server's handle on Sentry's SDK, loaded only when Sentry is on
 * (docs/decisions/0058): every other module imports Sentry's *types* only.
 */
export interface ServerSdk {
  node: typeof SentryNode;
  core: typeof SentryCore;
  /** `@sentry/core`'s server utilities (loaded by `@sentry/node` anyway). */
  server: typeof SentryCoreServer;
}

let loaded: ServerSdk | undefined;

/** The SDK when Sentry is on (the boot loaded it), else undefined. */
export function serverSdk(): ServerSdk | undefined {
  return loaded;
}

/** Loads the SDK (once); the boot calls it, before Remix loads, only when SENTRY_DSN is set. */
export async function loadServerSdk(): Promise<ServerSdk> {
  if (!loaded) {
    const [node, core, server] = await Promise.all([
      import("@sentry/node"),
      import("@sentry/core"),
      import("@sentry/core/server"),
    ]);
    loaded = { node, core, server };
  }
  return loaded;
}

/** Drops the handle (unit tests that started the SDK, so that later tests in the same process see Sentry off). */
export function forgetServerSdk(): void {
  loaded = undefined;
}
