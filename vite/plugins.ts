/**
 * The build's own Vite plugins, each with why it is there; vite.config.ts lists them in order.
 * The framework's plugin and the server build's substitute are assumptions about the framework,
 * in server/adapter/; the expected build warnings are in ./build-warnings.ts.
 */
import { execSync } from "node:child_process";
import path from "node:path";
import { sentryVitePlugin } from "@sentry/vite-plugin";
import type { Plugin, PluginOption } from "vite";

/** The boot, next to the server bundle: it checks the environment and starts Sentry before the app loads. */
export function serverBootEntry(): Plugin {
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
export function bundleBootDependencies(): Plugin {
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
export function sourceMaps(buildDirectory: string): PluginOption {
  const { SENTRY_AUTH_TOKEN, SENTRY_ORG, SENTRY_PROJECT } = process.env;
  const upload = Boolean(SENTRY_AUTH_TOKEN && SENTRY_ORG && SENTRY_PROJECT);
  const perEnvironment: Plugin = {
    name: "source-maps",
    // On as a whole too: Vite's CSS plugin asks the whole config, and without it the server
    // chunk's map comes out empty. The warning this brings is silenced in ./build-warnings.ts.
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
export function clientChunks(): Plugin {
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
export function browserSentryCore(): Plugin {
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
