import { defineConfig } from "@playwright/test";

/**
 * Deployment checks (minimal stand-in; the image branch brings the full
 * configuration): several real instances behind real nginx, after
 * `npm run build:e2e`. One worker: these specs load the whole machine.
 */
export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  outputDir: "../../test-results/deploy",
  timeout: 120_000,
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [["list"]],
});
