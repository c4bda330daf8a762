import path from "node:path";
import type { Plugin } from "vite";

/**
 * Adapter (server/adapter/README.md), a Vite plugin: the framework's Vite
 * plugin makes its server build from one virtual module, the input of the
 * SSR build and what its dev server loads for every request, and offers no
 * hook to wrap what is in it. This plugin resolves that name to
 * server/wrapped-server-build.ts, which imports the real one (the only importer that
 * gets it) and wraps every loader and action: one mechanism for the
 * production build and the dev server, and for Remix 2 and React Router 8,
 * where only the module's name changes. framework-plugin.test.ts fails if
 * the framework stops loading its build through this name.
 */
export const SERVER_BUILD_ID = "virtual:remix/server-build";

export const WRAPPED_SERVER_BUILD = path.resolve(import.meta.dirname, "../wrapped-server-build.ts");

export function substituteServerBuild(): Plugin {
  return {
    name: "substitute-server-build",
    // Before the framework's own resolver of its virtual modules.
    enforce: "pre",
    resolveId(source, importer) {
      if (source !== SERVER_BUILD_ID || importer === WRAPPED_SERVER_BUILD) return null;
      return WRAPPED_SERVER_BUILD;
    },
  };
}
