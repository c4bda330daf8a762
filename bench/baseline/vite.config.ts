/**
 * The bare Remix baseline of the benchmark (see bench/README.md): the same
 * Remix version and future flags as the app, Remix's default entry files, and
 * nothing the scaffold adds (no Sentry, no CSP, no logging).
 * Built with `npm run bench -- build baseline` (`remix vite:build` in this directory)
 * into `bench/baseline/build/`, or with `BENCH_GENERATED_ROUTES=<n>` (its generated
 * routes) into `build-routes-<n>/`; packages resolve from the root node_modules.
 *
 * Bare means Remix's own route matching too: the browser bundle gets the
 * unpatched `@remix-run/router` (the app's is patched by patch-package, see
 * docs/decisions/0030-route-matching-cache.md); on the server,
 * `unpatched-packages.mjs` redirects remix-serve's copies (and the patched
 * server renderer's, docs/decisions/0103) the same way.
 */
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { benchRouteCount } from "../../e2e/fixtures/routes.ts";
import { remixOptions } from "../../remix.config.js";

export default defineConfig({
  resolve: { alias: [{ find: /^@remix-run\/router$/, replacement: "@remix-run/router-unpatched" }] },
  plugins: [
    remix({
      future: remixOptions.future,
      buildDirectory: process.env.BENCH_GENERATED_ROUTES ? `build-routes-${benchRouteCount()}` : "build",
    }),
  ],
});
