import { reactRouter } from "@react-router/dev/vite";
import type { PluginOption } from "vite";

/**
 * Adapter (server/adapter/README.md): the framework's Vite plugin. React Router's options live in
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
