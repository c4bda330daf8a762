/** The build: its plugins in order, why unless the name says (plugins: vite/, server/adapter/); Vitest. */
import { availableParallelism } from "node:os";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { DEFAULT_BUILD_DIRECTORY, frameworkPlugin } from "./server/adapter/framework-plugin.ts";
import { substituteServerBuild } from "./server/adapter/substitute-server-build.ts";
import { quietBuild } from "./vite/build-warnings.ts";
import {
  browserSentryCore,
  bundleBootDependencies,
  clientChunks,
  serverBootEntry,
  sourceMaps,
} from "./vite/plugins.ts";

const SHARED_WORKER_TESTS = [
  "scripts/**/*.test.ts",
  "deploy/**/*.test.ts",
  "vite/**/*.test.ts",
  "bench/**/*.test.ts",
  "patches/**/*.test.ts",
  ".ci/**/*.test.ts",
  "tools/*/*.test.ts",
];
const ISOLATED_TESTS = ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "test-support/**/*.test.ts"];

export function createViteConfig({ buildDirectory = DEFAULT_BUILD_DIRECTORY } = {}) {
  return defineConfig({
    resolve: { alias: { "~": path.resolve("app") } },
    // The dev scan misses the lazily imported SDK; found later, it re-bundles and reloads the first page.
    optimizeDeps: { include: ["@sentry/remix"] },
    plugins: process.env.VITEST
      ? []
      : [
          // Every loader and action wrapped: our server build stands in for the framework's (first, to win its name).
          substituteServerBuild(),
          frameworkPlugin({ buildDirectory }),
          // boot.js beside the server bundle: the environment check and Sentry start before the app loads.
          serverBootEntry(),
          // zod, pino and the server SDK bundled: loaded module by module they cost start-up and memory (bench/README.md).
          bundleBootDependencies(),
          // The server's source maps kept; the browser's uploaded to Sentry and deleted, or never built.
          sourceMaps(buildDirectory),
          // The browser's packages in one chunk, as in a bare framework build: Rollup's split compresses worse.
          clientChunks(),
          browserSentryCore(),
          quietBuild(),
        ],
    test: {
      // What the React Router 8 upgrade puts in place is tested once it is (npm run test:upgrade).
      exclude: [...configDefaults.exclude, "scripts/upgrade-react-router/react-router-8/**"],
      environment: "node",
      projects: [
        // Checks of files, trees and commands, which share no state: one worker runs many, not one each.
        { extends: true, test: { name: "checks", include: SHARED_WORKER_TESTS, isolate: false } },
        { extends: true, test: { name: "app", include: ISOLATED_TESTS } },
      ],
      // A worker per core, not Vitest's one less: many files wait on processes they start.
      maxWorkers: Math.max(2, availableParallelism()),
      // A floor, not a pace (bench/README.md); heavier tests set their own limits.
      testTimeout: 20_000,
      hookTimeout: 30_000,
    },
  });
}

export default createViteConfig();
