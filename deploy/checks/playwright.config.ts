import { defineConfig } from "@playwright/test";

/**
 * Deploy checks (`npm run test:deploy`): the production image built with
 * Docker and run for real, and several instances behind a real nginx (after
 * `npm run build:e2e`). One worker: builds, containers and load share two cores.
 * The base image is NODE_IMAGE (default: the Dockerfile's). A cold image build
 * takes minutes on 2 cores (two npm installs, the Vite build); the timeouts give
 * a machine several times slower room.
 */
export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  outputDir: "../../test-results/deploy",
  timeout: 10 * 60_000,
  globalTimeout: 75 * 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [["list"]],
  globalTeardown: "./global-teardown.ts",
});
