import { vitePlugin as remix } from "@remix-run/dev";
import type { PluginOption } from "vite";
import { remixOptions } from "../../remix.config.js";

// Single fetch's types for loader and action data (Remix's guide declares this beside the Vite config).
declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * Adapter (server/adapter/README.md): the framework's Vite plugin. Remix's options live in
 * remix.config.js; the test and benchmark builds change only the build
 * directory (e2e/fixtures/vite.config.ts).
 */
export function frameworkPlugin({ buildDirectory }: { buildDirectory: string }): PluginOption {
  return remix({ ...remixOptions, buildDirectory });
}

/** The build directory of the app's own build. */
export const DEFAULT_BUILD_DIRECTORY = remixOptions.buildDirectory;
