/**
 * `npm run dev -- --spotlight` (docs/developing.md, "See it on a page: Spotlight"): the dev server
 * starts Spotlight's sidecar from tools/spotlight/ on the port SENTRY_SPOTLIGHT names (a free one
 * of 127.0.0.1 here), both SDKs send to it without a DSN, and in real Chromium its page lists a
 * loader's error with its digest tag and shows a traced request's waterfall: the loader's span
 * and, against a real Postgres and Redis (test-support/database-servers.ts), its queries. Its page
 * reaches nothing beyond this machine; the sidecar listens on 127.0.0.1 only and dies with the dev
 * server. `SPOTLIGHT_SCREENSHOTS=docs/images` writes the pages' screenshots there
 * (docs/adding-a-route.md shows them); every run writes them to its test-results folder.
 * It installs nothing: tools/spotlight/ is installed from its lock before `npm test`, an install
 * step as `npm ci` is (CI's). Not installed, it fails under CI and is skipped elsewhere, saying so.
 */
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { SERVER_HOOK_LIMIT_MS, type AppServer } from "../../test-support/app-server";
import { freePort } from "../../test-support/free-port";
import {
  missingDatabaseServers,
  startPostgres,
  startRedis,
  type DatabaseServer,
} from "../../test-support/database-servers";
import { installed, startSidecar } from "../../tools/spotlight/start";
import { startDevServer } from "../support/dev-server";
import { digestOnPage, expect, test } from "../support/spec-helpers";
import { createShapes } from "../support/stored-shapes";

test.describe.configure({ mode: "serial" });
// Postgres, Redis, the dev server and a second one beside it.
test.use({ serverStarts: 4 });

const root = path.resolve(import.meta.dirname, "../..");
const missing = missingDatabaseServers();
const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const OWNER = `owner-${hex(8)}`;
const TOOL = path.join(root, "tools/spotlight");

let sidecar: string;
let dev: AppServer;
let postgres: DatabaseServer | undefined;
let redis: DatabaseServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS * 2);
  // Else the dev server would install it from the registry (docs/testing.md).
  if (!installed(TOOL)) {
    const why =
      "tools/spotlight/ is not installed from its lock: npm ci --prefix tools/spotlight --no-audit --no-fund installs it";
    if (process.env.CI) throw new Error(`${why} (CI runs it before npm test)`);
    // The list reporter shows no skip's reason.
    console.error(`spotlight.spec.ts skipped: ${why}`);
    test.skip(true, why);
  }
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

test("the sidecar from the lock's install answers its page and health check, its own SDK off", async () => {
  const version = (file: string) =>
    (JSON.parse(readFileSync(path.join(TOOL, file), "utf8")) as { version: string }).version;
  const { overrides } = JSON.parse(readFileSync(path.join(TOOL, "package.json"), "utf8")) as {
    overrides: { hono: string };
  };
  // The hono pin (tools/spotlight/README.md): without it every answer is a 500.
  expect(version("node_modules/hono/package.json")).toBe(overrides.hono);
  // With SENTRY_DEBUG set, Spotlight's own SDK would print its logger's lines if it started.
  const own = await startSidecar({ port: 0, cwd: root, env: { ...process.env, SENTRY_DEBUG: "1" } });
  try {
    const origin = `http://127.0.0.1:${own.port}`;
    const page = await fetch(`${origin}/`);
    const health = await fetch(`${origin}/health`);
    await health.body?.cancel();
    expect([page.status, health.status]).toEqual([200, 200]);
    expect(await page.text()).toContain("<title>Spotlight</title>");
  } finally {
    await own.stop();
  }
  expect(own.output()).not.toContain("Sentry Logger");
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
