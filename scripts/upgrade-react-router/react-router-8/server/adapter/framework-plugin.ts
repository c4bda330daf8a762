import { reactRouter } from "@react-router/dev/vite";
import type { PluginOption, ResolvedConfig } from "vite";
import type { RouteDefinition } from "../../app/routing/route-patterns";

/**
 * Adapter (server/adapter/README.md): the framework's Vite plugin, and the one
 * thing the build reads from inside it. React Router's options live in
 * react-router.config.ts; the test and benchmark builds change only the build
 * directory (e2e/fixtures/vite.config.ts), which that file reads from here.
 */
const BUILD_DIRECTORY = Symbol.for("remix-scaffold.build-directory");

export function frameworkPlugin({ buildDirectory }: { buildDirectory: string }): PluginOption {
  (globalThis as { [BUILD_DIRECTORY]?: string })[BUILD_DIRECTORY] = buildDirectory;
  return reactRouter();
}

/** The build directory of the app's own build (react-router.config.ts's default). */
export const DEFAULT_BUILD_DIRECTORY = "build";

/**
 * The route config the framework's plugin resolved (file routes and
 * `app/routes.ts` alike), for route patterns: the plugin keeps its context on
 * Vite's resolved config, and no public API offers the routes.
 * framework-plugin.test.ts fails if that property goes.
 */
export function resolvedRoutes(config: ResolvedConfig): Record<string, RouteDefinition> {
  const context = (
    config as {
      __reactRouterPluginContext?: { reactRouterConfig: { routes: Record<string, RouteDefinition> } };
    }
  ).__reactRouterPluginContext;
  return context?.reactRouterConfig.routes ?? {};
}
