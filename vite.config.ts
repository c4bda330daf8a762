import { execSync } from "node:child_process";
import path from "node:path";
import { sentryVitePlugin } from "@sentry/vite-plugin";
import type { Plugin, PluginOption } from "vite";
import { configDefaults, defineConfig } from "vitest/config";
import { quietBuild } from "./server/build-warnings";
import { DEFAULT_BUILD_DIRECTORY, frameworkPlugin } from "./server/adapter/framework-plugin";
import { substituteServerBuild } from "./server/adapter/substitute-server-build";

/** The boot, next to the server bundle: it checks the environment and starts Sentry before the app loads. */
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

/** React Router 8 builds both in one run, where the resolved config's `build.ssr` is the client's. */
function isServerEnvironment(context: { environment?: { config: { consumer: string } } }): boolean {
  return context.environment?.config.consumer === "server";
}

/** Loading the boot's `zod` and `pino` module by module was most of the start-up cost (bench/README.md). */
function bundleBootDependencies(): Plugin {
  return {
    name: "bundle-boot-dependencies",
    apply: "build",
    config: () => ({ ssr: { noExternal: ["zod", "pino"] } }),
  };
}

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

/** The server's maps are kept (that build is never served); the browser's are uploaded to Sentry, then deleted. */
function sourceMaps(buildDirectory: string): PluginOption {
  const { SENTRY_AUTH_TOKEN, SENTRY_ORG, SENTRY_PROJECT } = process.env;
  const upload = Boolean(SENTRY_AUTH_TOKEN && SENTRY_ORG && SENTRY_PROJECT);
  const perEnvironment: Plugin = {
    name: "source-maps",
    // On as a whole too: Vite's CSS plugin asks the whole config, and without it the server
    // chunk's map comes out empty. The warning this brings is silenced in server/build-warnings.ts.
    config: () => ({ build: { sourcemap: true } }),
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

/** As in a bare Remix build: Rollup's split by importer gives every page two files that compress worse. */
function clientChunks(): Plugin {
  return {
    name: "client-chunks",
    // Per environment: a one-run build must not split the server's chunks.
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
 * One `@sentry/core` in the browser bundle, the one `@sentry/remix` resolves: npm nests a copy in each
 * browser package of the SDK, since the server's `@sentry/node` is another major (docs/decisions/0058).
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

/** Test and benchmark builds pass their own `buildDirectory` (e2e/fixtures/vite.config.ts). */
export function createViteConfig({ buildDirectory = DEFAULT_BUILD_DIRECTORY } = {}) {
  return defineConfig({
    resolve: { alias: { "~": path.resolve("app") } },
    // The dev scan misses the lazily imported SDK; found at the first page load, it makes Vite
    // re-bundle and reload that page, running its request twice.
    optimizeDeps: { include: ["@sentry/remix"] },
    plugins: process.env.VITEST
      ? []
      : [
          // Before the framework's plugin, which resolves the server build's name first.
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
      // A floor, not a pace (bench/README.md); heavier tests set their own limits.
      testTimeout: 20_000,
      hookTimeout: 30_000,
    },
  });
}

export default createViteConfig();
