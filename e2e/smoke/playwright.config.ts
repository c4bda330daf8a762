import { defineConfig } from "@playwright/test";

/**
 * Production smoke (`npm run test:smoke`), which .ci/run also runs with the next Node major first
 * on PATH: the real start script serving `build/` and `build-e2e/` (both made by `npm test`), with
 * Sentry pointed at a local recorder. Plain HTTP, no browser: what a Node major changes is the
 * server. Its files end in `.smoke.ts` so the main suite (`*.spec.ts`) does not pick them up.
 */
export default defineConfig({
  testDir: ".",
  testMatch: "*.smoke.ts",
  outputDir: "../../test-results/smoke",
  // Two server starts on a slow machine and a settle period fit with room to spare.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [["list"]],
});
