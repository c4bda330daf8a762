import { reactRouter } from "@react-router/dev/vite";
import type { PluginOption } from "vite";

/** The test and benchmark builds change only the build directory; react-router.config.ts reads it here. */
const BUILD_DIRECTORY = Symbol.for("remix-scaffold.build-directory");

export function frameworkPlugin({ buildDirectory }: { buildDirectory: string }): PluginOption {
  (globalThis as { [BUILD_DIRECTORY]?: string })[BUILD_DIRECTORY] = buildDirectory;
  return reactRouter();
}

/** react-router.config.ts's default. */
export const DEFAULT_BUILD_DIRECTORY = "build";
