import { execSync } from "node:child_process";
import path from "node:path";
import { sentryVitePlugin } from "@sentry/vite-plugin";
import type { Plugin, PluginOption } from "vite";
import { configDefaults, defineConfig } from "vitest/config";
import { quietBuild } from "./server/build-warnings";
import { DEFAULT_BUILD_DIRECTORY, frameworkPlugin } from "./server/adapter/framework-plugin";
import { substituteServerBuild } from "./server/adapter/substitute-server-build";

/**
 * Builds the boot (`server/boot.ts`) as `<build>/server/boot.js` next
 * to the server bundle. `boot.mjs` loads it through `--import`
 * before remix-serve imports the app, so the environment is checked and
 * Sentry starts first.
 */
function serverBootEntry(): Plugin {
  let ssr = false;
  return {
    name: "server-boot-entry",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    buildStart() {
      if (!ssr && !isServerEnvironment(this)) return;
      this.emitFile({
        type: "chunk",
        id: path.resolve("server/boot.ts"),
        fileName: "boot.js",
      });
    },
  };
}

/**
 * True while a plugin hook runs for the server's environment. A framework on
 * Vite's environment API (React Router 8) builds client and server in one run,
 * where the resolved config's `build.ssr` is the client's; Remix 2 runs a
 * separate SSR build, where it is set.
 */
function isServerEnvironment(context: { environment?: { config: { consumer: string } } }): boolean {
  return context.environment?.config.consumer === "server";
}

/**
 * The production server build bundles the two packages the boot needs before
 * anything else (the environment check's `zod`, the logger's `pino`) instead of
 * leaving them to Node: loading their ~120 modules one by one was most of what
 * the app's start added to bare Remix's (bench/README.md, "Start-up and
 * memory"). Build only: the dev server runs the app's modules through Vite,
 * which takes packages from Node as they are.
 */
function bundleBootDependencies(): Plugin {
  return {
    name: "bundle-boot-dependencies",
    apply: "build",
    config: () => ({ ssr: { noExternal: ["zod", "pino"] } }),
  };
}

/** The release source maps are uploaded for: SENTRY_RELEASE, else the git commit. */
function releaseName(): string | undefined {
  if (process.env.SENTRY_RELEASE) return process.env.SENTRY_RELEASE;
  try {
    return execSync("git rev-parse HEAD", { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

/**
 * Source maps. The server's are built with their `sourceMappingURL` and kept:
 * `npm start` and the image run Node with its own source-map support
 * (boot.mjs), so a server stack names `app/…` files and lines; the server
 * build is never served (only the client build and `public/` are). The
 * browser's are built only to upload them to Sentry ("hidden": no
 * `sourceMappingURL` comment), then deleted, so none can be served; without
 * SENTRY_AUTH_TOKEN, SENTRY_ORG and SENTRY_PROJECT none is built.
 */
function sourceMaps(buildDirectory: string): PluginOption {
  const { SENTRY_AUTH_TOKEN, SENTRY_ORG, SENTRY_PROJECT } = process.env;
  const upload = Boolean(SENTRY_AUTH_TOKEN && SENTRY_ORG && SENTRY_PROJECT);
  const perEnvironment: Plugin = {
    name: "source-maps",
    // On as a whole too: Vite's CSS plugin asks the whole config, not the
    // environment, whether to map its edits of a chunk, and without a map the
    // server chunk's map comes out empty (seen on React Router 8). The
    // frameworks' warning that this brings is silenced in server/build-warnings.ts.
    config: () => ({ build: { sourcemap: true } }),
    // Per environment: React Router 8 builds client and server in one run.
    configEnvironment: (name) => ({ build: { sourcemap: name === "client" ? upload && "hidden" : true } }),
  };
  if (!upload) return perEnvironment;
  return [
    perEnvironment,
    sentryVitePlugin({
      authToken: SENTRY_AUTH_TOKEN,
      org: SENTRY_ORG,
      project: SENTRY_PROJECT,
      release: { name: releaseName() },
      sourcemaps: { filesToDeleteAfterUpload: [`${buildDirectory}/client/**/*.map`] },
      telemetry: false,
    }),
  ];
}

/**
 * One chunk for the framework code every page needs (React, React DOM, Remix),
 * as in a bare Remix build: otherwise Rollup splits it by which entry imports
 * what, and every page downloads two files that compress worse than one.
 * Sentry's browser SDK stays out of it: it is loaded only when configured.
 */
function clientChunks(): Plugin {
  return {
    name: "client-chunks",
    // The client environment's own build options: a framework that builds both
    // environments in one run (Vite's environment API) must not split the server's.
    configEnvironment: (name) =>
      name !== "client"
        ? undefined
        : {
            build: {
              rollupOptions: {
                output: {
                  manualChunks: (id) =>
                    id.includes("/node_modules/") && !/\/node_modules\/@sentry(-internal)?\//.test(id)
                      ? "framework"
                      : undefined,
                },
              },
            },
          },
  };
}

/**
 * One `@sentry/core` in the browser bundle: the one `@sentry/remix` (10.x)
 * resolves. The server runs `@sentry/node` 11, so the project's own
 * `@sentry/core` is 11.x, and npm gives each browser package of the SDK
 * (`@sentry/browser`, `-react`, `-feedback`, `-replay`…) its own nested copy of
 * 10.x: bundled as they are, the client chunks carried several copies (about
 * 15 % more JavaScript). The server build resolves as usual (docs/decisions/0058).
 */
function browserSentryCore(): Plugin {
  const browserSdk = path.resolve("node_modules/@sentry/remix/package.json");
  return {
    name: "browser-sentry-core",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (options.ssr || !/^@sentry\/core(\/|$)/.test(source) || importer === browserSdk) return null;
      return this.resolve(source, browserSdk, { ...options, skipSelf: true });
    },
  };
}

/**
 * The app's Vite config. `buildDirectory` is `build/` by default; the test
 * and benchmark builds pass their own (e2e/fixtures/vite.config.ts).
 */
export function createViteConfig({ buildDirectory = DEFAULT_BUILD_DIRECTORY } = {}) {
  return defineConfig({
    resolve: { alias: { "~": path.resolve("app") } },
    // The dev server's dependency scan misses Sentry's browser SDK (imported
    // only when configured); found at the first page load instead, it makes
    // Vite re-bundle and reload that page, which runs its request twice.
    optimizeDeps: { include: ["@sentry/remix"] },
    plugins: process.env.VITEST
      ? []
      : [
          // Before the framework's plugin: it resolves the server build's name first.
          substituteServerBuild(),
          frameworkPlugin({ buildDirectory }),
          serverBootEntry(),
          bundleBootDependencies(),
          sourceMaps(buildDirectory),
          clientChunks(),
          browserSentryCore(),
          quietBuild(),
        ],
    test: {
      // What the React Router 8 upgrade puts in place is tested once it is (npm run test:upgrade).
      exclude: [...configDefaults.exclude, "scripts/upgrade-react-router/react-router-8/**"],
      include: [
        "app/**/*.test.{ts,tsx}",
        "server/**/*.test.ts",
        "test-support/**/*.test.ts",
        "bench/**/*.test.ts",
        "deploy/**/*.test.ts",
        "patches/**/*.test.ts",
        ".ci/**/*.test.ts",
        "scripts/**/*.test.ts",
      ],
      environment: "node",
      // A floor, not a pace: Vitest's 5 s default was passed on a loaded machine (bench/README.md,
      // "How long the test suite takes"). 20 s leaves a machine several times slower room, and a
      // hung test still fails. Heavier tests (SDK imports, large bodies) set their own limits.
      testTimeout: 20_000,
      hookTimeout: 30_000,
    },
  });
}

export default createViteConfig();
