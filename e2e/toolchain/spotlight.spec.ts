/**
 * `npm run dev -- --spotlight` (docs/developing.md, "See it on a page: Spotlight"): the dev server
 * starts Spotlight's sidecar from tools/spotlight/ on the port SENTRY_SPOTLIGHT names (a free one
 * of 127.0.0.1 here), both SDKs send to it without a DSN, and in real Chromium its page lists a
 * loader's error with its digest tag and shows a traced request's waterfall: the loader's span
 * and, against a real Postgres and Redis (test-support/database-servers.ts), its queries. Its page
 * reaches nothing beyond this machine; the sidecar listens on 127.0.0.1 only and dies with the dev
 * server. `SPOTLIGHT_SCREENSHOTS=docs/images` writes the pages' screenshots there
 * (docs/adding-a-route.md shows them); every run writes them to its test-results folder.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync } from "node:fs";
import { networkInterfaces } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { SERVER_HOOK_LIMIT_MS, type AppServer } from "../../test-support/app-server";
import { freePort } from "../../test-support/free-port";
import {
  missingDatabaseServers,
  startPostgres,
  startRedis,
  type DatabaseServer,
} from "../../test-support/database-servers";
import { startRecorder } from "../../test-support/sentry-recorder";
import { ensureInstalled } from "../../tools/spotlight/start";
import { devCommand, devEnv, startDevServer } from "../support/dev-server";
import { digestOnPage } from "../support/spec-helpers";
import { createShapes } from "../support/stored-shapes";

test.describe.configure({ mode: "serial" });

const root = path.resolve(import.meta.dirname, "../..");
const missing = missingDatabaseServers();
const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const OWNER = `owner-${hex(8)}`;
/** `npm ci` of tools/spotlight on first use: seconds with npm's cache, a minute or two without. */
const INSTALL_LIMIT_MS = 300_000;

let sidecar: string;
let dev: AppServer;
let postgres: DatabaseServer | undefined;
let redis: DatabaseServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(INSTALL_LIMIT_MS + SERVER_HOOK_LIMIT_MS * 2);
  ensureInstalled();
  if (!missing) {
    [postgres, redis] = await Promise.all([
      startPostgres("shapes", `pg-${hex(8)}`),
      startRedis(`redis-${hex(8)}`),
    ]);
    await createShapes(postgres.url, OWNER);
  }
  sidecar = `http://127.0.0.1:${await freePort()}`;
  dev = await startDevServer(
    {
      SENTRY_SPOTLIGHT: `${sidecar}/stream`,
      SENTRY_ENVIRONMENT: "e2e-spotlight",
      E2E_DATABASE_URL: postgres?.url,
      E2E_REDIS_URL: redis?.url,
    },
    { options: ["--spotlight"] },
  );
});

test.afterAll(async () => {
  await Promise.all([dev?.stop("SIGKILL"), postgres?.stop(), redis?.stop()]);
});

/** Spotlight's page in a tab of its own, and every URL that tab requested. */
async function openSpotlight(page: Page, route: string): Promise<string[]> {
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  await page.setViewportSize({ width: 1200, height: 680 });
  await page.goto(`${sidecar}${route}`);
  await expect(page.getByText("Connected to Sidecar")).toBeVisible();
  return requested;
}

async function screenshot(page: Page, name: string): Promise<void> {
  const file = test.info().outputPath(name);
  await page.screenshot({ path: file });
  const into = process.env.SPOTLIGHT_SCREENSHOTS;
  if (into) {
    mkdirSync(path.resolve(root, into), { recursive: true });
    copyFileSync(file, path.resolve(root, into, name));
  }
}

/** On this machine: a `blob:` URL by the origin that made it, `data:` by being no request at all. */
function isLocal(url: string): boolean {
  const { protocol, origin } = new URL(url);
  return (
    protocol === "data:" ||
    (origin !== "null" && ["127.0.0.1", "localhost"].includes(new URL(origin).hostname))
  );
}

test("the dev server started the sidecar, said where, and both SDKs run with no DSN", () => {
  const starting = dev
    .stdout()
    .split("\n[")
    .find((record) => record.includes("INFO: starting"));
  expect(starting).toContain("sentry: true");
  expect(starting).toContain(`spotlight: "${sidecar}/stream"`);
  expect(starting).toContain("tracesSampleRate: 1");
  // The bound as anywhere: Vite's module requests are never traced, so they never lower a page's rate (0090).
  expect(starting).toContain("tracesPerSecond: 20");
  expect(dev.output()).toContain(`Spotlight: ${sidecar}/ (started here: ends with npm run dev)`);
});

test("a loader's error: Spotlight's page lists it with the page's digest as its tag, and the browser's page load", async ({
  page,
  context,
}) => {
  const response = await page.goto(`${dev.url}/fixtures/loader-error`);
  expect(response?.status()).toBe(500);
  const digest = await digestOnPage(page);

  const spotlight = await context.newPage();
  const requested = await openSpotlight(spotlight, "/telemetry/errors");
  const error = spotlight.getByRole("link").filter({ hasText: "Fixture: loader failed" });
  await expect(error).toHaveCount(1);
  await error.click();
  await spotlight.getByRole("link", { name: "Context", exact: true }).click();
  await expect(spotlight.getByText(digest, { exact: true })).toBeVisible();
  await expect(spotlight.getByText("digest", { exact: true })).toBeVisible();
  await screenshot(spotlight, "spotlight-error.png");

  // The browser's SDK sends there too, with no DSN: the error page's load is a trace of its own.
  await spotlight.getByRole("link", { name: /^Traces/ }).click();
  const pageLoad = spotlight
    .getByRole("link")
    .filter({ hasText: "Browser" })
    .filter({ hasText: "/fixtures/loader-error" });
  await expect(pageLoad).toHaveCount(1);
  expect(requested.filter((url) => !isLocal(url))).toEqual([]);
});

test("a traced request with database spans: its trace shows the loader's span and its queries", async ({
  page,
  context,
}) => {
  test.skip(Boolean(missing), `the queries need Postgres and Redis: ${missing}`);
  await context.addCookies([{ name: "owner", value: OWNER, url: dev.url }]);
  // The second request's trace: the first one's holds Vite's compiling and the connections' setup.
  await page.goto(`${dev.url}/fixtures/shapes/stored`);
  const response = await page.goto(`${dev.url}/fixtures/shapes/stored`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Stored shapes");
  const requestId = response!.headers()["x-request-id"]!;

  const spotlight = await context.newPage();
  const consoleLines: string[] = [];
  spotlight.on("console", (message) => consoleLines.push(message.text()));
  const requested = await openSpotlight(spotlight, "/telemetry/traces");
  const trace = spotlight
    .getByRole("link")
    .filter({ hasText: "Server" })
    .filter({ hasText: "/fixtures/shapes/stored" });
  await expect(trace).toHaveCount(2);
  // Newest first.
  await trace.first().click();
  await expect(spotlight.getByText(requestId, { exact: true })).toBeVisible();
  await expect(spotlight.getByText("http.server", { exact: true })).toBeVisible();
  await expect(spotlight.getByText("loader.remix", { exact: true })).toBeVisible();
  await expect(spotlight.getByText(/SELECT id, name FROM shapes WHERE owner = \$1/)).toBeVisible();
  await spotlight.getByText("loader.remix", { exact: true }).click();
  await screenshot(spotlight, "spotlight-trace.png");

  // Its page's own SDK tried Sentry's hosted service and was refused: nothing left the machine.
  await expect
    .poll(() =>
      consoleLines.some((line) => /Connecting to 'https:\/\/[^']*sentry\.io\/.*violates/.test(line)),
    )
    .toBe(true);
  expect(requested.filter((url) => !isLocal(url))).toEqual([]);
});

test("a second dev server with SENTRY_SPOTLIGHT alone uses the sidecar already running", async ({
  request,
}) => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  const second = await startDevServer({ SENTRY_SPOTLIGHT: `${sidecar}/stream` });
  try {
    expect(second.output()).toContain(`Spotlight: ${sidecar}/ (already running)`);
    expect((await request.get(`${second.url}/`)).status()).toBe(200);
  } finally {
    await second.stop("SIGKILL");
  }
  // Still answering: the second server started none and stopped none.
  expect((await request.get(`${sidecar}/health`)).status()).toBe(200);
});

test("a bad SENTRY_SPOTLIGHT stops it with one line and exit code 1, before Vite starts", () => {
  const { command, args } = devCommand();
  const result = spawnSync(command, args, {
    cwd: root,
    env: devEnv({ SENTRY_SPOTLIGHT: "localhost:8969" }),
    encoding: "utf8",
    timeout: 60_000,
  });
  expect([result.status, result.stdout]).toEqual([1, ""]);
  expect(result.stderr).toBe(
    "Invalid environment: SENTRY_SPOTLIGHT must be on, off or the URL of Spotlight's sidecar such as http://localhost:8969/stream\n",
  );
});

test("a port taken by something else stops it with one line and exit code 1", async () => {
  const recorder = await startRecorder();
  try {
    const taken = new URL(recorder.dsn()).origin;
    const { command, args } = devCommand();
    const result = spawnSync(command, [...args, "--spotlight"], {
      cwd: root,
      env: devEnv({ PORT: String(await freePort()), SENTRY_SPOTLIGHT: `${taken}/stream` }),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `npm run dev: ${taken} is not Spotlight: stop what listens there, or set SENTRY_SPOTLIGHT to a free port's URL\n`,
    );
  } finally {
    await recorder.close();
  }
});

test("the sidecar listens on 127.0.0.1 alone, and dies with the dev server", async () => {
  const port = Number(new URL(sidecar).port);
  // Another loopback address (Linux routes all of 127/8 there) and this machine's network ones.
  const addresses = Object.values(networkInterfaces())
    .flat()
    .flatMap((address) =>
      address && !address.internal && address.family === "IPv4" ? [address.address] : [],
    );
  for (const address of ["127.0.0.2", ...addresses]) {
    await expect(fetch(`http://${address}:${port}/health`), address).rejects.toThrow();
  }
  await dev.stop("SIGKILL");
  await expect
    .poll(() =>
      fetch(`${sidecar}/health`).then(
        () => "answers",
        () => "gone",
      ),
    )
    .toBe("gone");
});
