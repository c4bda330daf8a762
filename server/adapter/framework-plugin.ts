import { vitePlugin as remix } from "@remix-run/dev";
import type { PluginOption } from "vite";
import { remixOptions } from "../../remix.config.js";

// Single fetch's types for loader and action data (Remix's guide declares this beside the Vite config).
declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
}

/** The test and benchmark builds change only the build directory (e2e/fixtures/vite.config.ts). */
export function frameworkPlugin({ buildDirectory }: { buildDirectory: string }): PluginOption {
  return remix({ ...remixOptions, buildDirectory });
}

export const DEFAULT_BUILD_DIRECTORY = remixOptions.buildDirectory;
