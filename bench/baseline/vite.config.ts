/**
 * The bare Remix baseline of the benchmark (see bench/README.md): the same
 * Remix version and future flags as the app, Remix's default entry files, and
 * nothing the scaffold adds (no Sentry, no CSP, no logging).
 * Built with `npm run build:baseline` (`remix vite:build` in this directory)
 * into `bench/baseline/build/`; packages resolve from the root node_modules.
 */
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { remixOptions } from "../../remix.config.js";

export default defineConfig({
  plugins: [remix({ future: remixOptions.future })],
});
