import type * as SentryCore from "@sentry/core";
import type { StackParser } from "@sentry/core";
import type * as SentryCoreServer from "@sentry/core/server";
import type * as SentryNode from "@sentry/node";

/** Loaded only when Sentry is on (docs/decisions/0058): every other module imports Sentry's *types* only. */
export interface ServerSdk {
  node: typeof SentryNode;
  core: typeof SentryCore;
  server: typeof SentryCoreServer;
}

let loaded: ServerSdk | undefined;

export function serverSdk(): ServerSdk | undefined {
  return loaded;
}

export async function loadServerSdk(): Promise<ServerSdk> {
  if (!loaded) {
    const { node, core, server } = await import("./server-sdk-modules.server.ts");
    loaded = { node, core, server };
  }
  return loaded;
}

/** The build's chunk of the SDK (vite/plugins.ts), whose file is the app's to Sentry's stack parser. */
export const SERVER_SDK_CHUNK = /server-sdk-modules\.server-[\w-]+\.js$/;

export function sdkFramesNotInApp(parse: StackParser): StackParser {
  return (stack, ...rest) =>
    parse(stack, ...rest).map((frame) =>
      frame.filename && SERVER_SDK_CHUNK.test(frame.filename) ? { ...frame, in_app: false } : frame,
    );
}

/** For unit tests that started the SDK, so later tests in the same process see Sentry off. */
export function forgetServerSdk(): void {
  loaded = undefined;
}
