/**
 * Playwright's `test` with the app under test: each worker gets its own Sentry-protocol
 * recorder and, when a test asks for `app` (or `page`, through `baseURL`), a production server
 * (build-e2e, Sentry on at 100 % tracing, DSN pointing at the recorder), so tests assert on what
 * really reached the wire. A spec whose app needs other settings says so at the top of its file:
 * `test.use({ appEnv: { SENTRY_LOGS_LEVEL: "info" } })`. A worker starts one server per set of
 * settings, when a test first needs it, and keeps it until the worker ends: every file of the
 * worker that asks for the same settings shares it.
 *
 * A spec file that starts servers of its own (`startApp`, `startDevServer`, a database, or an
 * `appEnv` of its own) declares how many at its top: `test.use({ serverStarts: 2 })`. A test
 * after which the file has started more fails, naming the count (server-starts.ts).
 * Used by the e2e suite (through e2e/support/spec-helpers.ts) and the deploy checks.
 */
import path from "node:path";
import { test as base, expect } from "@playwright/test";
import { launchApp, SERVER_HOOK_LIMIT_MS, type AppServer } from "./app-server";
import { startRecorder, type Recorder } from "./sentry-recorder";
import { countServerStart, serverStartsOf } from "./server-starts";

/** The servers of one worker, one per `appEnv`. */
interface AppServers {
  get(appEnv: Record<string, string>): Promise<AppServer>;
}

interface WorkerFixtures {
  recorder: Recorder;
  appServers: AppServers;
}

interface TestFixtures {
  /** Variables added to, or replacing, the app's default environment. */
  appEnv: Record<string, string>;
  app: AppServer;
  /** How many servers the spec file starts besides the worker's default app. */
  serverStarts: number;
  serverBudget: void;
  /** Console errors and page errors of the test's page, for "nothing went wrong" checks. */
  browserErrors: string[];
}

const ROOT = path.resolve(import.meta.dirname, "..");

/** What an e2e server reports to the worker's recorder with: every request traced, unless `rate` says otherwise. */
export function reportingTo(recorder: Recorder, rate = "1"): Record<string, string> {
  return { SENTRY_DSN: recorder.dsn(), SENTRY_TRACES_SAMPLE_RATE: rate, SENTRY_ENVIRONMENT: "e2e" };
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
  appServers: [
    async ({ recorder }, use) => {
      const servers = new Map<string, Promise<AppServer>>();
      await use({
        get(appEnv) {
          const key = JSON.stringify(Object.entries(appEnv).sort());
          let server = servers.get(key);
          if (!server) {
            // The default app is the worker's; one with settings of its own is the spec file's.
            if (Object.keys(appEnv).length > 0) countServerStart();
            server = launchApp({ env: { ...reportingTo(recorder), ...appEnv } });
            servers.set(key, server);
          }
          return server;
        },
      });
      const started = await Promise.allSettled(servers.values());
      await Promise.all(started.map((result) => (result.status === "fulfilled" ? result.value.stop() : 0)));
    },
    // The stop of the worker's servers, side by side: a drain each (app-server.ts).
    { scope: "worker", timeout: SERVER_HOOK_LIMIT_MS },
  ],
  appEnv: [{}, { option: true }],
  // Its own time slot, not the test's (app-server.ts).
  app: [
    async ({ appServers, appEnv }, use) => use(await appServers.get(appEnv)),
    { timeout: SERVER_HOOK_LIMIT_MS },
  ],
  serverStarts: [0, { option: true }],
  serverBudget: [
    async ({ serverStarts }, use, testInfo) => {
      await use();
      const started = serverStartsOf(testInfo.file);
      if (started > serverStarts)
        throw new Error(
          `${path.relative(ROOT, testInfo.file)} has started ${started} servers, and declares ` +
            `test.use({ serverStarts: ${serverStarts} }): share one, or declare the new count (test-support/test-with-app.ts)`,
        );
    },
    { auto: true },
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
