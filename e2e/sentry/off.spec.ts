/**
 * Sentry off: without SENTRY_DSN the production build sends nothing anywhere,
 * the browser never downloads the Sentry SDK, and error pages still show
 * digests that match the log.
 */
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "../../test-support/app-server";
import {
  clientNavigate,
  digestOnPage,
  expect,
  SERVER_ERROR_HEADING,
  SETTLE_MS,
  test,
  waitForHydration,
} from "../support/spec-helpers";

test.use({ serverStarts: 1 }); // Sentry off

let off: AppServer;

test.beforeAll(async () => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  off = await startApp({ env: {} });
});

test.afterAll(async () => {
  await off?.stop();
});

test("browsing sends nothing, loads no Sentry code and still shows digests", async ({ page, recorder }) => {
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));

  // The start page.
  const start = await page.goto(`${off.url}/`);
  expect(start?.status()).toBe(200);
  expect(start?.headers()["server-timing"] ?? "").not.toContain("sentry-trace");
  await expect(page.locator('meta[name="sentry-trace"], meta[name="baggage"]')).toHaveCount(0);

  // A server error page.
  expect((await page.goto(`${off.url}/fixtures/loader-error`))?.status()).toBe(500);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(SERVER_ERROR_HEADING);
  const documentDigest = await digestOnPage(page);
  await off.waitForLog((line) => line.digest === documentDigest);

  // Client navigations: to another page, and to a server error.
  await page.goto(`${off.url}/fixtures/items/1`);
  await waitForHydration(page);
  await page.getByRole("link", { name: "Item 2" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Item 2");
  await clientNavigate(page, "/fixtures/loader-error");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(SERVER_ERROR_HEADING);
  const navigationDigest = await digestOnPage(page);
  expect(navigationDigest).not.toBe(documentDigest);
  await off.waitForLog((line) => line.digest === navigationDigest);

  // The SDK never ran in the page, and nothing was fetched from anywhere but the app.
  expect(await page.evaluate(() => "__SENTRY__" in window)).toBe(false);
  expect(requested.length).toBeGreaterThan(0);
  expect(requested.filter((url) => !url.startsWith(`${off.url}/`))).toEqual([]);
  expect(requested.filter((url) => url.includes("sentry.client"))).toEqual([]);
  // Nothing that reached the recorder came from this app.
  await page.waitForTimeout(SETTLE_MS);
  expect(recorder.envelopes.filter((envelope) => envelope.rawBody.includes(off.url))).toEqual([]);
});
