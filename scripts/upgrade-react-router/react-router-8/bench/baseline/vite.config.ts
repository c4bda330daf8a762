/**
 * The bare React Router 8 baseline of the benchmark (see bench/README.md): the
 * same React Router version as the app, its default entry files, and nothing
 * the scaffold adds (no Sentry, no CSP, no logging). Built with
 * `npm run bench -- build baseline` (`react-router build` in this directory) into
 * `bench/baseline/build/`, or with `BENCH_GENERATED_ROUTES=<n>` into
 * `build-routes-<n>/` (react-router.config.ts); packages resolve from the root node_modules.
 */
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({ plugins: [reactRouter()] });
