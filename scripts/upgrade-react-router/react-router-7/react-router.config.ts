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
  // React Router 8's behaviours stay off until the move to 8, a step of its own (React 19):
  // middleware and passed-through requests change what loaders see, split route modules and
  // the environment API change the build, trailing-slash data URLs change what clients request.
  future: {
    v8_middleware: false,
    v8_passThroughRequests: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
