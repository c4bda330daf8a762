import { execSync } from "node:child_process";
import path from "node:path";
import { sentryVitePlugin } from "@sentry/vite-plugin";
import type { Plugin, PluginOption } from "vite";
import { SERVER_SDK_CHUNK } from "../app/monitoring/server-sdk.server.ts";

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

export function bundleBootDependencies(): Plugin {
  return {
    name: "bundle-boot-dependencies",
    apply: "build",
    config: () => ({ ssr: { noExternal: ["zod", "pino", /^@sentry\//, "@opentelemetry/api"] } }),
    // Vendored modules kept whole (their parser is imported for its side effect); the map unlinked (decision 0096).
    transform(code, id, options) {
      if ((options?.ssr || isServerEnvironment(this)) && /\/node_modules\/@sentry\/.*\/vendored\//.test(id))
        return { code, map: null, moduleSideEffects: true };
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle))
        if (chunk.type === "chunk" && SERVER_SDK_CHUNK.test(chunk.fileName))
          chunk.code = chunk.code.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
    },
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

export function sourceMaps(buildDirectory: string): PluginOption {
  const { SENTRY_AUTH_TOKEN, SENTRY_ORG, SENTRY_PROJECT } = process.env;
  const upload = Boolean(SENTRY_AUTH_TOKEN && SENTRY_ORG && SENTRY_PROJECT);
  const perEnvironment: Plugin = {
    name: "source-maps",
    // On as a whole too, or Vite's CSS plugin leaves the server chunk's map empty (its warning: build-warnings.ts).
    config: () => ({ build: { sourcemap: true } }),
    configEnvironment: (name) => ({ build: { sourcemap: name === "client" ? upload && "hidden" : true } }),
  };
  if (!upload) return perEnvironment;
  process.env.SENTRY_CLI_NO_TELEMETRY ??= "1"; // the plugin's `telemetry: false` no longer reaches its CLI
  return [
    perEnvironment,
    sentryVitePlugin({
      authToken: SENTRY_AUTH_TOKEN,
      org: SENTRY_ORG,
      project: SENTRY_PROJECT,
      release: { name: releaseName() },
      sourcemaps: { filesToDeleteAfterUpload: [`${buildDirectory}/client/**/*.map`] },
      telemetry: false,
      errorHandler: (error) => {
        throw error; // left to the plugin, a failed upload is one logged line, and the build passes
      },
    }),
  ];
}

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

/** npm nests a `@sentry/core` in each browser SDK package, the server's being another major (docs/decisions/0058). */
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
