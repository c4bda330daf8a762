import os from "node:os";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, systemChromium } from "../test-support/chromium";

/**
 * End-to-end tests: the production build (`build-e2e/`, made by
 * `npm run build:e2e`) served by remix-serve through the real start script,
 * driven in real Chromium, with Sentry pointed at a local recorder. Each worker
 * shares one app server per set of settings among its files, and a file starts
 * the other servers it needs, as many as it declares (../test-support/test-with-app.ts);
 * specs are grouped by topic in folders (docs/testing.md, "Where the harness lives").
 */
/**
 * Two workers a core: much of a test is waiting for an event to arrive or settle, which the others
 * fill. Nothing here measures speed (the benchmark does: bench/README.md), so nothing is pinned.
 */
const WORKERS = 2 * os.availableParallelism();

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  outputDir: "../test-results",
  // Sized for a slow day: over 3x the longest test of the "e2e" project with every core busy
  // elsewhere (npm test -- --loaded; bench/README.md, "How long the test suite takes").
  // Waiting for a page or an event costs nothing while things go well.
  timeout: 60_000,
  expect: { timeout: 20_000 },
  workers: WORKERS,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: { executablePath: systemChromium(), args: CHROMIUM_ARGS },
    trace: "off",
  },
  // One project: a second one (once, for the longest files first) had workers of its own, each with
  // its own browser, recorder and app. A file too long for one worker runs its tests in parallel
  // instead (`test.describe.configure({ mode: "parallel" })`), which spreads them over all workers.
  projects: [{ name: "e2e" }],
});
