import type * as SentryCore from "@sentry/core";
import type * as SentryNode from "@sentry/node";

/**
 * The server's handle on Sentry's SDK (`@sentry/node` 11 and the `@sentry/core`
 * it is built on), loaded only when Sentry is on: with no SENTRY_DSN the
 * server loads nothing of `@sentry/*` (docs/decisions/0058). Every module
 * of the server imports Sentry's *types* only; values come from here.
 *
 * The handle lives on `globalThis`, not in this module: the boot
 * (`build/server/instrument.js`) and the app (`build/server/index.js`, or
 * Vite's module graph under `npm run dev`) may each hold their own copy of
 * this module, and both must see the SDK the boot loaded.
 */
export interface ServerSdk {
  node: typeof SentryNode;
  core: typeof SentryCore;
}

const HANDLE = Symbol.for("remix-sentry-scaffold.server-sdk");
const holder = globalThis as typeof globalThis & { [HANDLE]?: ServerSdk };

/** The SDK when Sentry is on (the boot loaded it), else undefined. */
export function serverSdk(): ServerSdk | undefined {
  return holder[HANDLE];
}

/** Loads the SDK (once); the boot calls it, before Remix loads, only when SENTRY_DSN is set. */
export async function loadServerSdk(): Promise<ServerSdk> {
  if (!holder[HANDLE]) {
    const [node, core] = await Promise.all([import("@sentry/node"), import("@sentry/core")]);
    holder[HANDLE] = { node, core };
  }
  return holder[HANDLE];
}

/** Drops the handle (unit tests that started the SDK, so that later tests in the same process see Sentry off). */
export function forgetServerSdk(): void {
  delete holder[HANDLE];
}
