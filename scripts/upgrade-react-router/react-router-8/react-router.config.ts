import type { Config } from "@react-router/dev/config";

/**
 * React Router's options, in one place. The test and benchmark builds change
 * only the build directory (e2e/fixtures/vite.config.ts): React Router's
 * plugin takes no options, so server/adapter/framework-plugin.ts hands the
 * directory over through `globalThis` in the same process.
 */
const BUILD_DIRECTORY = Symbol.for("remix-scaffold.build-directory");

export default {
  appDirectory: "app",
  buildDirectory: (globalThis as { [BUILD_DIRECTORY]?: string })[BUILD_DIRECTORY] ?? "build",
  ssr: true,
} satisfies Config;
