/**
 * Playwright's `test` with the app under test: each worker gets its own Sentry-protocol
 * recorder and, when a test asks for `app` (or `page`, through `baseURL`), its
 * own production server (build-e2e, Sentry on at 100 % tracing, DSN pointing
 * at the recorder), so tests assert on what really reached the wire. A spec whose app needs other
 * settings says so at the top of its file: `test.use({ appEnv: { SENTRY_LOGS_LEVEL: "info" } })`.
 * Used by the e2e suite (through e2e/support/spec-helpers.ts) and the deploy checks.
 */
import { test as base, expect } from "@playwright/test";
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "./app-server";
import { startRecorder, type Recorder } from "./sentry-recorder";

interface WorkerFixtures {
  recorder: Recorder;
  /** Variables added to, or replacing, the app's default environment. */
  appEnv: Record<string, string>;
  app: AppServer;
}

interface TestFixtures {
  /** Console errors and page errors of the test's page, for "nothing went wrong" checks. */
  browserErrors: string[];
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  recorder: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring
    async ({}, use) => {
      const recorder = await startRecorder();
      await use(recorder);
      await recorder.close();
    },
    // A listen on 127.0.0.1 and a close: milliseconds; the limit only turns a hang into a failure.
    { scope: "worker", timeout: 30_000 },
  ],
  // A worker option: files that set it get workers of their own, so no other file meets that app.
  appEnv: [{}, { scope: "worker", option: true }],
  app: [
    async ({ recorder, appEnv }, use) => {
      const app = await startApp({
        env: {
          SENTRY_DSN: recorder.dsn(),
          SENTRY_TRACES_SAMPLE_RATE: "1",
          SENTRY_ENVIRONMENT: "e2e",
          ...appEnv,
        },
      });
      await use(app);
      await app.stop();
    },
    // Its own time slot, not the first test's (app-server.ts).
    { scope: "worker", timeout: SERVER_HOOK_LIMIT_MS },
  ],
  baseURL: async ({ app }, use) => use(app.url),
  browserErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(errors);
  },
});

export { expect };
