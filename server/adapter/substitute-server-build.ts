import path from "node:path";
import type { Plugin } from "vite";

/**
 * Adapter (server/adapter/README.md), a Vite plugin that substitutes
 * server/wrapped-server-build.ts for the framework's virtual server build
 * module, which the production build and the dev server both load and which
 * offers no hook to wrap. The wrapped build alone imports the real one.
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
