/**
 * Spotlight is development's alone (docs/developing.md): the production build carries none of it,
 * the production dependencies do not include it (the image's check, deploy/checks/image.spec.ts,
 * looks inside the image), and `npm start` never talks to it, even with SENTRY_SPOTLIGHT set
 * (which the server SDK would read by itself) and Sentry on.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "../../test-support/app-server";
import { digestOnPage, expect, isServerEvent, SETTLE_MS, settledItems, test } from "../support/spec-helpers";

const root = path.resolve(import.meta.dirname, "../..");

/** What stands in for a sidecar: it only counts what reaches it. */
const reached: string[] = [];
const sidecar = createServer((request: IncomingMessage, response) => {
  reached.push(`${request.method} ${request.url}`);
  response.end();
});
test.use({ serverStarts: 1 }); // npm start with SENTRY_SPOTLIGHT set

let sidecarOrigin: string;
let app: AppServer;

test.beforeAll(async ({ recorder }) => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  await new Promise<void>((resolve) => sidecar.listen(0, "127.0.0.1", resolve));
  sidecarOrigin = `http://127.0.0.1:${(sidecar.address() as AddressInfo).port}`;
  app = await startApp({
    env: {
      SENTRY_DSN: recorder.dsn(),
      SENTRY_TRACES_SAMPLE_RATE: "1",
      SENTRY_SPOTLIGHT: `${sidecarOrigin}/stream`,
    },
  });
});

test.afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => sidecar.close(resolve));
});

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

test("the production build: no browser asset names the integration or the variable, no server file imports it", () => {
  const build = path.join(root, "build");
  expect(existsSync(build), "the default build (npm run build) comes first").toBe(true);
  const browser = filesUnder(path.join(build, "client")).filter((file) => file.endsWith(".js"));
  expect(browser.length).toBeGreaterThan(0);
  const named = browser.filter((file) =>
    /SpotlightBrowser|SENTRY_SPOTLIGHT|sidecar/i.test(readFileSync(file, "utf8")),
  );
  expect(named.map((file) => path.relative(root, file))).toEqual([]);
  const server = filesUnder(path.join(build, "server")).filter((file) => file.endsWith(".js"));
  const imports = server.filter((file) => /@spotlightjs|tools\/spotlight/.test(readFileSync(file, "utf8")));
  expect(imports.map((file) => path.relative(root, file))).toEqual([]);
});

test("the production dependencies: none of Spotlight's, nor its pinned hono", () => {
  const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
    packages: Record<string, unknown>;
  };
  const spotlight = Object.keys(lock.packages).filter((where) => /@spotlightjs\/|\/hono$/.test(where));
  expect(spotlight).toEqual([]);
});

test("npm start with SENTRY_SPOTLIGHT set: off in its start line, nowhere in a page, nothing sent there", async ({
  page,
  recorder,
}) => {
  const starting = app.logLines().find((line) => line.msg === "starting");
  expect(starting).toMatchObject({ sentry: true, spotlight: false });

  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  const response = await page.goto(`${app.url}/fixtures/loader-error`);
  expect(response?.status()).toBe(500);
  const digest = await digestOnPage(page);
  expect(response?.headers()["content-security-policy"]).not.toContain(sidecarOrigin);
  const html = await response!.text();
  expect(html).not.toContain(sidecarOrigin);
  expect(html).not.toContain("SENTRY_SPOTLIGHT");

  // The ingest got the error: Sentry was on, and sent where it should.
  const events = await settledItems(
    recorder,
    (item) => isServerEvent(item) && item.payload.tags?.digest === digest,
    1,
  );
  expect(events).toHaveLength(1);
  await page.waitForTimeout(SETTLE_MS);
  expect(reached).toEqual([]);
  expect(requested.filter((url) => url.startsWith(sidecarOrigin))).toEqual([]);
});
