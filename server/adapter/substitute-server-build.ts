import path from "node:path";
import type { Plugin } from "vite";

/** The framework's virtual server build offers no hook to wrap it, so the wrapper replaces it. */
export const SERVER_BUILD_ID = "virtual:remix/server-build";

export const WRAPPED_SERVER_BUILD = path.resolve(
  import.meta.dirname,
  "../data-functions/wrapped-server-build.ts",
);

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
