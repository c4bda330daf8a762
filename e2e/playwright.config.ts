import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, systemChromium } from "../test-support/chromium";

/**
 * End-to-end tests: the production build (`build-e2e/`, made by
 * `npm run build:e2e`) served by remix-serve through the real start script,
 * driven in real Chromium, with Sentry pointed at a local recorder. Each test
 * file starts the servers it needs (see ../test-support/test-with-app.ts); specs are grouped by
 * topic in folders (docs/testing.md, "Where the harness lives").
 */
export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  outputDir: "../test-results",
  // Sized for a slow day: over 3x the longest test of the "e2e" project with every core busy
  // elsewhere (npm test -- --loaded; bench/README.md, "How long the test suite takes").
  // Waiting for a page or an event costs nothing while things go well.
  timeout: 60_000,
  expect: { timeout: 20_000 },
  // Two cores: one worker per core, each with its own app server and browser.
  workers: 2,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: { executablePath: systemChromium(), args: CHROMIUM_ARGS },
    trace: "off",
  },
  projects: [
    { name: "e2e", testIgnore: ["**/faults.spec.ts", "**/attack-cost.spec.ts"] },
    // Latency and memory comparisons run last and alone: a second worker's
    // browser and servers on the same 2 cores would be noise in the figures.
    { name: "faults", testMatch: ["**/faults.spec.ts", "**/attack-cost.spec.ts"], dependencies: ["e2e"] },
  ],
});
