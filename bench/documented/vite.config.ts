/**
 * Target E of the benchmark (bench/README.md): the bare baseline
 * (bench/baseline: same routes, same modules, same Remix options, Remix's own
 * unpatched router) plus `@sentry/remix` 10.75.2 set up as Sentry's Remix
 * guide says, and nothing else. Its root, entry files and `instrument.server.mjs`
 * are here; its routes are the baseline's files (app/routes.ts).
 * Built by `bench/support/builds.ts` (`remix vite:build` in this directory,
 * `BENCH_GENERATED_ROUTES=<n>`) into `build-bench-documented-<n>/` at the
 * repository root, a path every ignore list already covers (`build-bench-*`).
 */
import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { benchRouteCount } from "../../e2e/fixtures/routes.ts";
import { remixOptions } from "../../remix.config.js";

export default defineConfig({
  // The build directory is outside this Vite root: empty it anyway, as Vite does inside.
  build: { emptyOutDir: true },
  resolve: { alias: [{ find: /^@remix-run\/router$/, replacement: "@remix-run/router-unpatched" }] },
  plugins: [
    remix({
      future: remixOptions.future,
      buildDirectory: path.resolve(import.meta.dirname, `../../build-bench-documented-${benchRouteCount()}`),
    }),
  ],
});
