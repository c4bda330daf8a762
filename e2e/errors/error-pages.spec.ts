/**
 * Generic fallbacks and digests, in real Chromium against
 * the production build: every kind of server error shows the server-side
 * message with a digest that matches exactly one log line; client-side
 * exceptions show the client-side message; no error text reaches the page.
 */
import type { Page } from "@playwright/test";
import {
  clientNavigate,
  CLIENT_ERROR_HEADING,
  digestOnPage,
  expect,
  SERVER_ERROR_HEADING,
  test,
  waitForHydration,
} from "../support/spec-helpers";
import type { AppServer } from "../../test-support/app-server";
import { DIGEST_ATTRIBUTE } from "../../app/errors/digest";

/** The digest's one log line, with the error's name, message, stack, method and path. */
async function expectOneLogLine(
  app: AppServer,
  digest: string,
  expected: { method: string; path: string; message: string },
) {
  const line = await app.waitForLog((entry) => entry.digest === digest);
  expect(app.logLines().filter((entry) => entry.digest === digest)).toHaveLength(1);
  expect(line).toMatchObject({ level: "error", method: expected.method, path: expected.path });
  const err = line.err as { type: string; message: string; stack: string };
  expect(err.type).toBe("Error");
  expect(err.message).toContain(expected.message);
  expect(err.stack).toContain(expected.message);
  expect(typeof line.requestId).toBe("string");
  return line;
}

async function expectNoLeak(page: Page) {
  const html = await page.content();
  expect(html).not.toContain("Fixture:");
  expect(html).not.toContain("secret-token-123");
  expect(html).not.toMatch(/at [\w$.]+ \(.*:\d+:\d+\)/);
}

test.describe("server errors show the digest that is in the log", () => {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
      test.use({ javaScriptEnabled });

      test("loader error on a document request", async ({ page, app }) => {
        const response = await page.goto("/fixtures/loader-error");
        expect(response?.status()).toBe(500);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(SERVER_ERROR_HEADING);
        const digest = await digestOnPage(page);
        await expect(page.getByText(`Digest: ${digest}`)).toBeVisible();
        await expectOneLogLine(app, digest, {
          method: "GET",
          path: "/fixtures/loader-error",
          message: "loader failed",
        });
        await expectNoLeak(page);
      });

      test("server render error", async ({ page, app }) => {
        const response = await page.goto("/fixtures/render-error");
        expect(response?.status()).toBe(500);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(SERVER_ERROR_HEADING);
        const digest = await digestOnPage(page);
        await expectOneLogLine(app, digest, {
          method: "GET",
          path: "/fixtures/render-error",
          message: "server render failed",
        });
        await expectNoLeak(page);
      });

      test("action error on a form post", async ({ page, app }) => {
        await page.goto("/fixtures/action-error");
        if (javaScriptEnabled) await waitForHydration(page);
        await page.getByLabel("Note").fill("hello");
        await page.getByRole("button", { name: "Send" }).click();
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(SERVER_ERROR_HEADING);
        const digest = await digestOnPage(page);
        // With JavaScript the post is a single-fetch request to the page's `.data` URL.
        const path = javaScriptEnabled ? "/fixtures/action-error.data" : "/fixtures/action-error";
        await expectOneLogLine(app, digest, { method: "POST", path, message: "action failed" });
        await expectNoLeak(page);
      });
    });
  }

  test("loader error during a client navigation (single fetch)", async ({ page, app }) => {
    await page.goto("/fixtures/items/1");
    await waitForHydration(page);
    const dataRequest = page.waitForResponse((response) =>
      response.url().includes("/fixtures/loader-error.data"),
    );
    await clientNavigate(page, "/fixtures/loader-error");
    expect((await dataRequest).status()).toBe(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(SERVER_ERROR_HEADING);
    const digest = await digestOnPage(page);
    await expectOneLogLine(app, digest, {
      method: "GET",
      path: "/fixtures/loader-error.data",
      message: "loader failed",
    });
    await expectNoLeak(page);
  });
});

test.describe("client-side exceptions show the client-side message", () => {
  test("render error after hydration", async ({ page }) => {
    await page.goto("/fixtures/client-render-error");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(CLIENT_ERROR_HEADING);
    await expect(page.locator(`[${DIGEST_ATTRIBUTE}]`)).toHaveCount(0);
  });

  test("event handler error that reaches the boundary", async ({ page }) => {
    await page.goto("/fixtures/event-error");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Fail into boundary" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(CLIENT_ERROR_HEADING);
  });

  test("client loader error", async ({ page }) => {
    await page.goto("/fixtures/items/1");
    await waitForHydration(page);
    await clientNavigate(page, "/fixtures/client-loader-error");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(CLIENT_ERROR_HEADING);
  });
});

test.describe("thrown responses show their status and a short text", () => {
  test("a 500 Response: its status text, and the digest of its one log line", async ({ page, app }) => {
    const response = await page.goto("/fixtures/server-error-response");
    expect(response?.status()).toBe(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("500");
    await expect(page.getByText("The server could not answer this request.")).toBeVisible();
    await expect(page.getByText("Upstream said no")).toHaveCount(0);
    const digest = await digestOnPage(page);
    await expect(page.getByText(`Digest: ${digest}`)).toBeVisible();
    const line = await app.waitForLog((entry) => entry.digest === digest);
    expect(app.logLines().filter((entry) => entry.digest === digest)).toHaveLength(1);
    expect(line).toMatchObject({
      level: "error",
      status: 500,
      method: "GET",
      path: "/fixtures/server-error-response",
      route: "/fixtures/server-error-response",
      // Its body's type and length; the words in it may name a user (docs/errors.md).
      err: {
        type: "ThrownResponse",
        message: "500 Response, text/plain body",
        answer: { status: 500, contentType: "text/plain", length: "Upstream said no".length },
      },
    });
  });

  test("a 500 Response on a client navigation shows the digest of its log line", async ({ page, app }) => {
    await page.goto("/fixtures/items/1");
    await waitForHydration(page);
    await clientNavigate(page, "/fixtures/server-error-response");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("500");
    const digest = await digestOnPage(page);
    const line = await app.waitForLog((entry) => entry.digest === digest);
    expect(line).toMatchObject({ status: 500, path: "/fixtures/server-error-response.data" });
  });

  test("a 404 Response from a real route", async ({ page }) => {
    const response = await page.goto("/fixtures/not-found");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("404");
    await expect(page.getByText("This page could not be found.")).toBeVisible();
  });

  test("a redirect", async ({ page }) => {
    await page.goto("/fixtures/redirect");
    await expect(page).toHaveURL(/\/fixtures\/items\/1$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Item 1");
  });
});

test("error pages are complete HTML documents", async ({ request }) => {
  for (const path of [
    "/fixtures/loader-error",
    "/fixtures/render-error",
    "/fixtures/not-found",
    "/no-such-page",
  ]) {
    const response = await request.get(path);
    const html = await response.text();
    expect(html.startsWith("<!DOCTYPE html>"), path).toBe(true);
    // Single fetch streams its data as scripts after </html>; browsers append them to <body>.
    expect(html).toMatch(/^<!DOCTYPE html><html lang="en"><head>.*<\/head><body>.*<\/body><\/html>/s);
    expect(html).toContain('<meta charSet="utf-8"/>');
  }
});
