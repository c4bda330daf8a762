import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import type { Plugin, PluginOption } from "vite";

/** The repository: the app's public files and .env, wherever a build is rooted. */
const APP_ROOT = path.resolve(import.meta.dirname, "../..");

/** React Router reads react-router.config.ts in Vite's root only: the test builds' is e2e/fixtures/ (docs/decisions/0084). */
export function frameworkPlugin({ buildDirectory }: { buildDirectory: string }): PluginOption {
  return [reactRouter(), appRootPlugin(buildDirectory)];
}

function appRootPlugin(buildDirectory: string): Plugin {
  return {
    name: "app-root",
    config: () => ({
      publicDir: path.join(APP_ROOT, "public"),
      envDir: APP_ROOT,
      build: { emptyOutDir: true }, // outside the root too: the directory is ours alone
    }),
    configResolved(config) {
      const client = config.environments.client?.build.outDir;
      if (config.command !== "build" || client === undefined) return;
      const built = path.resolve(config.root, client, "..");
      if (built !== path.resolve(APP_ROOT, buildDirectory))
        throw new Error(
          `the build directory: ${path.relative(APP_ROOT, path.join(config.root, "react-router.config.ts"))} names ${path.relative(APP_ROOT, built)}, the Vite config ${buildDirectory}`,
        );
    },
  };
}

/** react-router.config.ts's default. */
export const DEFAULT_BUILD_DIRECTORY = "build";
