/**
 * `npm run dev` runs the production boot (docs/decisions/0056): the same
 * environment check, Sentry on both sides, tunnel, pre-app handlers, digest
 * path and graceful shutdown as `npm start`, with Vite's hot reload, against
 * the source instead of a build. One dev server for the file, started the way
 * package.json says, with the fixture routes.
 *
 * What development shows beyond production: the page looks the same (heading
 * and digest), but Remix's development mode puts the error's message and
 * stack in the page's hydration data, and log records are pretty, not JSON
 * (without colours: its output is a pipe; e2e/toolchain/dev-colours.spec.ts has the rest).
 */
import path from "node:path";
import { expect, test } from "../support/spec-helpers";
import { SERVER_HOOK_LIMIT_MS, type AppServer } from "../../test-support/app-server";
import { devCommand, devEnv, startDevServer } from "../support/dev-server";
import {
  digestOnPage,
  isErrorEvent,
  opOf,
  SERVER_ERROR_HEADING,
  settledItems,
} from "../support/spec-helpers";
import { buildRequest, rawHttp } from "../../test-support/raw-http";
import { runToExit } from "../../test-support/run-to-exit";
import { startRecorder, type Recorder } from "../../test-support/sentry-recorder";

test.use({ serverStarts: 1 }); // the dev server

test.describe.configure({ mode: "serial" });

const TUNNEL = "/monitoring";
let recorder: Recorder;
let dev: AppServer;

test.beforeAll(async () => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  recorder = await startRecorder();
  dev = await startDevServer({
    SENTRY_DSN: recorder.dsn(),
    SENTRY_TRACES_SAMPLE_RATE: "1",
    SENTRY_ENVIRONMENT: "e2e-dev",
    SENTRY_TUNNEL_ROUTE: TUNNEL,
  });
});

test.afterAll(async () => {
  await dev?.stop("SIGKILL");
  await recorder?.close();
});

/** The pretty log records (one per `[time] LEVEL: msg` header line). */
function records(output: string): string[] {
  return output.split(/\n(?=\[\d\d:\d\d:\d\d\.\d{3}\] )/).filter((record) => record.startsWith("["));
}

test("the boot ran first: one pretty start record, development mode, Sentry and the tunnel on", () => {
  const starting = records(dev.stdout()).filter((record) => /^\[[^\]]+\] INFO: starting\n/.test(record));
  expect(starting).toHaveLength(1);
  expect(starting[0]).toContain('mode: "development"');
  expect(starting[0]).toContain("sentry: true");
  expect(starting[0]).toContain(`tunnel: "${TUNNEL}"`);
  expect(starting[0]).toContain(`port: ${dev.port}`);
});

test("pre-app handlers answer before Vite: readiness, unsupported methods, malformed paths", async () => {
  const ready = await fetch(`${dev.url}/readyz`);
  expect([ready.status, await ready.text()]).toEqual([200, "ready"]);
  expect((await rawHttp(dev.port, buildRequest("TRACE", "/"))).status).toBe(405);
  const malformed = await rawHttp(dev.port, buildRequest("GET", "/%E0%A4%A"));
  expect(malformed.status).toBe(400);
  expect(malformed.body).toContain("Bad Request: malformed URL");
});

test("a loader error: production's page and digest, one log record, one Sentry event; hot reload connected", async ({
  page,
}) => {
  const console: string[] = [];
  page.on("console", (message) => console.push(`${message.type()}: ${message.text()}`));
  const response = await page.goto(`${dev.url}/fixtures/loader-error`);
  expect(response?.status()).toBe(500);
  const digest = await digestOnPage(page);
  await expect(page.locator("main")).toHaveText(`${SERVER_ERROR_HEADING}Digest: ${digest}`);

  // Beyond production: the error's message and stack ride in the hydration data.
  const html = await response!.text();
  expect(html).toContain("Fixture: loader failed with secret-token-123");
  // A frame at the fixture's loader (React Router 8's dev server, on Vite's module runner,
  // names that frame after another identifier: its file and line are what is kept).
  expect(html).toMatch(/at \S+ \([^)]*\/e2e\/fixtures\/routes\/loader-error\.tsx:\d+:\d+\)/);

  // The browser SDK runs and reports through the tunnel (which says whose report it forwards).
  await recorder.waitForItem(
    (item, envelope) =>
      item.type === "transaction" &&
      opOf(item) === "pageload" &&
      envelope.headers["x-forwarded-for"] === "127.0.0.1",
  );
  // Vite's client reached its hot-reload socket through the pre-app handlers.
  await expect.poll(() => console.some((line) => line.includes("[vite] connected."))).toBe(true);

  const events = await settledItems(recorder, isErrorEvent, 1);
  expect(events).toHaveLength(1);
  expect(events[0]!.payload).toMatchObject({
    platform: "node",
    environment: "e2e-dev",
    transaction: "GET /fixtures/loader-error",
    tags: { digest, request_id: expect.any(String) },
  });

  const withDigest = records(dev.output()).filter((record) => record.includes(digest));
  expect(withDigest).toHaveLength(1);
  expect(withDigest[0]).toMatch(/^\[[^\]]+\] ERROR: unexpected server error\n/);
  expect(withDigest[0]).toContain('route: "/fixtures/loader-error"');
  expect(withDigest[0]).toContain("secret-token-123");
});

// The boot runs in Node and the app in Vite's module runner: each would evaluate its own copy of
// what both import, and a request id, the SDK or the route table would go missing between them.
test("one copy of what the boot and the app share: the app's record carries the boot's request id", async () => {
  const response = await fetch(`${dev.url}/fixtures/loader-error`);
  const id = response.headers.get("x-request-id");
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  const errorRecords = () =>
    records(dev.output()).filter((record) => /^\[[^\]]+\] ERROR: unexpected server error\n/.test(record));
  await expect
    .poll(() => errorRecords().filter((record) => record.includes(`requestId: "${id}"`)))
    .toHaveLength(1);
});

test("a bad variable stops it with one line on stderr and exit code 1, before Vite starts", async () => {
  const { command, args } = devCommand();
  const result = await runToExit(command, args, {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: devEnv({ SENTRY_TRACES_SAMPLE_RATE: "2" }),
    timeoutMs: 30_000,
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toBe(
    "Invalid environment: SENTRY_TRACES_SAMPLE_RATE must be a number between 0 and 1\n",
  );
  expect(result.stdout).toBe("");
});

test("SIGTERM: one record when shutdown starts, one when it ends, exit 0, nothing on stderr", async () => {
  const stopped = await dev.stop("SIGTERM");
  expect(stopped).toEqual({ code: 0, signal: null });
  const shutdown = records(dev.stdout()).filter((record) => /^\[[^\]]+\] INFO: shut/.test(record));
  expect(shutdown).toHaveLength(2);
  expect(shutdown[0]).toMatch(/INFO: shutting down\n[\s\S]*signal: "SIGTERM"/);
  expect(shutdown[1]).toMatch(/INFO: shut down\n[\s\S]*inFlightFinished: true[\s\S]*sentryFlushed: true/);
  expect(dev.output()).toBe(dev.stdout());
});

test("into a pipe, not one terminal escape in all it wrote: records, Vite's lines, the error, the shutdown", () => {
  expect(dev.output()).toContain("Local:");
  expect(dev.output()).not.toContain("\u001b");
});
