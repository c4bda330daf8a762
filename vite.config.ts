import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { remixOptions } from "./remix.config.js";
import { routePatterns, type RouteDefinition } from "./app/monitoring/route-patterns";

declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * `virtual:route-patterns`: every route's URL pattern, computed from the route
 * config the Remix plugin resolved (file routes and `app/routes.ts` alike), so
 * that browser and server name transactions and log lines the same way.
 */
function routePatternsPlugin(): Plugin {
  const virtualId = "virtual:route-patterns";
  let routes: Record<string, RouteDefinition> = {};
  return {
    name: "route-patterns",
    configResolved(config) {
      // The Remix plugin keeps its resolved config on the Vite config.
      const context = (config as { __remixPluginContext?: { remixConfig: { routes: typeof routes } } })
        .__remixPluginContext;
      routes = context?.remixConfig.routes ?? {};
    },
    resolveId: (source) => (source === virtualId ? "\0" + virtualId : undefined),
    load: (id) =>
      id === "\0" + virtualId ? `export default ${JSON.stringify(routePatterns(routes))};` : undefined,
  };
}

/**
 * Builds `app/monitoring/instrument.server.ts` as `<build>/server/instrument.js`
 * next to the server bundle. `instrument.server.mjs` loads it through
 * `--import` before remix-serve imports the app, so Sentry starts first.
 */
function serverInstrumentEntry(): Plugin {
  let ssr = false;
  return {
    name: "server-instrument-entry",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    buildStart() {
      if (!ssr) return;
      this.emitFile({
        type: "chunk",
        id: path.resolve("app/monitoring/instrument.server.ts"),
        fileName: "instrument.js",
      });
    },
  };
}

export default defineConfig({
  resolve: { alias: { "~": path.resolve("app") } },
  plugins: process.env.VITEST ? [] : [remix(remixOptions), routePatternsPlugin(), serverInstrumentEntry()],
  test: {
    include: ["app/**/*.test.{ts,tsx}", "e2e/support/**/*.test.ts"],
    environment: "node",
  },
});
