import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, systemChromium } from "../test-support/chromium";
import { canReserveCore } from "../test-support/reserved-core";

/**
 * End-to-end tests: the production build (`build-e2e/`, made by
 * `npm run build:e2e`) served by remix-serve through the real start script,
 * driven in real Chromium, with Sentry pointed at a local recorder. Each worker
 * shares one app server per set of settings among its files, and a file starts
 * the other servers it needs, as many as it declares (../test-support/test-with-app.ts);
 * specs are grouped by topic in folders (docs/testing.md, "Where the harness lives").
 */
/**
 * Latency and CPU compared between twin servers, and the trace bound's minute of load with its
 * forged-header CPU ratio: nothing of the rest of the suite may run on their core, nor their load
 * on the suite's.
 */
// The failing ingest's memory test too: its time limit was sized for running alone, as it did
// inside faults.spec.ts; beside four workers on a slow spell it ran out of it.
const COST_SPECS = ["**/faults.spec.ts", "**/rate-bound.spec.ts", "**/failing-ingest-memory.spec.ts"];
/**
 * The suite's longest files (their times: docs/testing.md, "Where the time goes"), started first:
 * Playwright takes files in alphabetical order, and these, last, made a tail on one worker while
 * the others sat idle. Spotlight's two install its folder first.
 */
const LONG_SPECS = [
  "**/route-shapes.spec.ts",
  "**/error-events.spec.ts",
  "**/tracing/transactions.spec.ts",
  "**/spotlight.spec.ts",
  "**/spotlight-pin.spec.ts",
];
const ownCore = canReserveCore();

export default defineConfig<object, { ownCore: boolean }>({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  outputDir: "../test-results",
  // Sized for a slow day: over 3x the longest test of the "e2e" project with every core busy
  // elsewhere (npm test -- --loaded; bench/README.md, "How long the test suite takes").
  // Waiting for a page or an event costs nothing while things go well.
  timeout: 60_000,
  expect: { timeout: 20_000 },
  // Four workers for the suite, each with its own app servers and browser (much of a test is
  // waiting for an event to arrive or to settle, which the others fill), and one for the cost specs.
  workers: ownCore ? 5 : 4,
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
    // First, so that they start at once: on a core of their own beside the rest of the suite
    // (test-support/reserved-core.ts), or where no core can be reserved, after it and alone: a
    // second worker's browser and servers on their cores would be noise in the figures.
    {
      name: "faults",
      testMatch: COST_SPECS,
      workers: 1,
      use: { ownCore: true },
      dependencies: ownCore ? [] : ["e2e"],
    },
    // Listed before the rest of the suite, so that its files are the first a free worker takes.
    { name: "e2e-long", testMatch: LONG_SPECS },
    { name: "e2e", testIgnore: [...COST_SPECS, ...LONG_SPECS], workers: 4 },
  ],
});
