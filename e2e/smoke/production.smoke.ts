/**
 * The production server works on the Node that runs this test: start page, 404, and an unexpected
 * error with its digest on the page, in one log line and in one Sentry event. Both servers are
 * started through `npm start`'s command line, so they run on the first `node` on PATH, as this
 * runner does; the first test proves it.
 */
import { readlinkSync, realpathSync } from "node:fs";
import { startApp, type AppServer } from "../../test-support/app-server";
import {
  test as base,
  expect,
  isErrorEvent,
  SERVER_ERROR_HEADING,
  settledItems,
} from "../support/spec-helpers";
import { DIGEST_PATTERN } from "../../app/errors/digest";
import { digestInHtml } from "../../test-support/error-digest";

/** The shared fixtures' recorder, with two servers of the production builds reporting to it. */
interface Servers {
  /** The default build (`build/`): what `npm start` serves. */
  defaultBuild: AppServer;
  /** The e2e build (`build-e2e/`): the default one plus fixture routes, one of which throws. */
  e2eBuild: AppServer;
}

const test = base.extend<object, Servers>({
  defaultBuild: [
    async ({ recorder }, use) => {
      const app = await startApp({ build: "build", env: { SENTRY_DSN: recorder.dsn() } });
      await use(app);
      await app.stop();
    },
    { scope: "worker" },
  ],
  e2eBuild: [
    async ({ recorder }, use) => {
      const app = await startApp({ build: "build-e2e", env: { SENTRY_DSN: recorder.dsn() } });
      await use(app);
      await app.stop();
    },
    { scope: "worker" },
  ],
});
test.use({ serverStarts: 2 }); // the two builds, once each

test(`the default build serves its pages (test on Node ${process.version})`, async ({ defaultBuild }) => {
  if (process.platform === "linux") {
    expect(realpathSync(readlinkSync(`/proc/${defaultBuild.process.pid}/exe`)), "the server's node").toBe(
      realpathSync(process.execPath),
    );
  }

  const start = await fetch(`${defaultBuild.url}/`);
  expect(start.status).toBe(200);
  expect(start.headers.get("content-type")).toContain("text/html");
  expect(await start.text()).toContain("<h1>Remix + Sentry scaffold</h1>");

  const missing = await fetch(`${defaultBuild.url}/nope`);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toContain("This page could not be found.");
});

test("an unexpected error: digest on the page, in one log line and one Sentry event", async ({
  e2eBuild,
  recorder,
}) => {
  const response = await fetch(`${e2eBuild.url}/fixtures/loader-error`);
  expect(response.status).toBe(500);
  const html = await response.text();
  expect(html).toContain(SERVER_ERROR_HEADING);
  expect(html, "the error's message stays on the server").not.toContain("secret-token-123");
  const digest = digestInHtml(html);
  expect(digest, "the digest on the error page").toMatch(DIGEST_PATTERN);

  const line = await e2eBuild.waitForLog((entry) => entry.digest === digest, 10_000);
  expect(line.level).toBe("error");
  expect(e2eBuild.logLines().filter((entry) => entry.digest === digest)).toHaveLength(1);

  const events = await settledItems(
    recorder,
    (item) => isErrorEvent(item) && item.payload.tags?.digest === digest,
    1,
  );
  expect(events).toHaveLength(1);
  expect(events[0]!.payload.platform).toBe("node");
});
