import { vitePlugin as remix } from "@remix-run/dev";
import type { PluginOption, ResolvedConfig } from "vite";
import { remixOptions } from "../../remix.config.js";
import type { RouteDefinition } from "../../app/routing/route-patterns";

// Single fetch's types for loader and action data (Remix's guide declares this beside the Vite config).
declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * Adapter (server/adapter/README.md): the framework's Vite plugin, and the one
 * thing the build reads from inside it. Remix's options live in
 * remix.config.js; the test and benchmark builds change only the build
 * directory (e2e/fixtures/vite.config.ts).
 */
export function frameworkPlugin({ buildDirectory }: { buildDirectory: string }): PluginOption {
  return remix({ ...remixOptions, buildDirectory });
}

/** The build directory of the app's own build. */
export const DEFAULT_BUILD_DIRECTORY = remixOptions.buildDirectory;

/**
 * The route config the framework's plugin resolved (file routes and
 * `app/routes.ts` alike), for route patterns: the plugin keeps its context on
 * Vite's resolved config, and no public API offers the routes.
 * framework-plugin.test.ts fails if that property goes.
 */
export function resolvedRoutes(config: ResolvedConfig): Record<string, RouteDefinition> {
  const context = (
    config as { __remixPluginContext?: { remixConfig: { routes: Record<string, RouteDefinition> } } }
  ).__remixPluginContext;
  return context?.remixConfig.routes ?? {};
}
