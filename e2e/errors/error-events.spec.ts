/**
 * Error events, in real Chromium against the production build with the real
 * SDKs and the local recorder:
 *  - every unexpected server error (loader, action, render; document request,
 *    single fetch, form post with and without JavaScript) is exactly one event
 *    with the original stack, `handled: false` and the digest the page shows;
 *  - every browser exception is exactly one event, and hydrating a server
 *    error page adds none;
 *  - thrown Responses: a 5xx is one event, a 4xx or a redirect none.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page, Request } from "@playwright/test";
import type { AppServer } from "../../test-support/app-server";
import { FRAMEWORK } from "../../test-support/framework";
import type { EnvelopeItem, Recorder } from "../../test-support/sentry-recorder";
import {
  clientNavigate,
  digestOnPage,
  expect,
  fromNowOn,
  isBrowserEvent,
  isErrorEvent,
  isFormPostTo,
  isTransaction,
  opOf,
  pageTrace,
  parseSentryTrace,
  settledItems,
  test,
  traceIdOf,
  waitForHydration,
  waitForTracing,
} from "../support/spec-helpers";

// Its tests share only the worker's app and recorder: spread over every worker, the file makes no tail.
test.describe.configure({ mode: "parallel" });

interface ServerErrorCase {
  /** The function that throws (the bundle may suffix its name with `$n`). */
  fn: RegExp;
  /** The start of the error message. */
  message: string;
}

const LOADER_ERROR: ServerErrorCase = { fn: /^loader(\$\w+)?$/, message: "loader failed with" };
const ACTION_ERROR: ServerErrorCase = { fn: /^action(\$\w+)?$/, message: "action failed" };
const RENDER_ERROR: ServerErrorCase = { fn: /^RenderError$/, message: "server render failed" };

/** The fixture routes, bundled into the server build; the server maps its stacks back to them. */
const FIXTURE_ROUTES = path.resolve(import.meta.dirname, "../fixtures/routes");

/** The fixture file and line that hold the `throw` statement for `message`. */
function sourceOfThrow(message: string): { file: string; line: number } {
  const files = readdirSync(FIXTURE_ROUTES, { withFileTypes: true }).filter((entry) => entry.isFile());
  const matches = files.flatMap(({ name }) =>
    readFileSync(path.join(FIXTURE_ROUTES, name), "utf8")
      .split("\n")
      .flatMap((text, index) =>
        text.includes(`throw new Error("Fixture: ${message}`) ? [{ file: name, line: index + 1 }] : [],
      ),
  );
  expect(matches, `throw statements for "${message}" in ${FIXTURE_ROUTES}`).toHaveLength(1);
  return matches[0]!;
}

/** The innermost exception of an event: the one that was thrown. */
function thrown(item: EnvelopeItem) {
  return item.payload.exception.values.at(-1);
}

/** The page load transaction of a trace has arrived: the browser has hydrated and its SDK runs. */
async function waitForPageload(recorder: Recorder, traceId: string): Promise<void> {
  await recorder.waitForItem(
    (item) => isTransaction(item) && opOf(item) === "pageload" && traceIdOf(item) === traceId,
  );
}

/** The trace a browser request continues (`sentry-trace` header). */
async function traceOfRequest(request: Request): Promise<string> {
  return parseSentryTrace(await request.headerValue("sentry-trace")).traceId;
}

/**
 * Exactly one event for the trace of the failed request: the server's, with
 * the thrown error's own stack down to the fixture's `throw`, `handled: false`,
 * and the digest the page shows and the one log line has.
 */
async function expectOneServerEvent(
  recorder: Recorder,
  app: AppServer,
  { traceId, digest, error }: { traceId: string; digest: string; error: ServerErrorCase },
): Promise<void> {
  const events = await settledItems(recorder, (item) => isErrorEvent(item) && traceIdOf(item) === traceId, 1);
  expect(events).toHaveLength(1);
  const event = events[0]!.payload;
  expect(event.platform).toBe("node");
  expect(event.tags?.digest).toBe(digest);

  const exception = thrown(events[0]!);
  expect(exception.type).toBe("Error");
  expect(exception.value).toContain(`Fixture: ${error.message}`);
  expect(exception.mechanism).toMatchObject({ type: "auto.function.remix.server", handled: false });
  // The error's own stack: its innermost frame is the fixture's `throw`, in
  // its source file: Node maps the stack through the server build's source
  // map before the SDK reads it, with no upload.
  const innermost = exception.stacktrace.frames.at(-1);
  const source = sourceOfThrow(error.message);
  expect(innermost.filename).toMatch(new RegExp(`/e2e/fixtures/routes/${source.file.replace(".", "\\.")}$`));
  expect(innermost.function).toMatch(error.fn);
  expect(innermost.lineno).toBe(source.line);
  expect(innermost.in_app).toBe(true);

  const line = await app.waitForLog((entry) => entry.digest === digest);
  expect(app.logLines().filter((entry) => entry.digest === digest)).toHaveLength(1);
  expect(line.level).toBe("error");
}

/**
 * Submits the action fixture's form; resolves with the trace of the post. With
 * JavaScript it is a single-fetch request whose `sentry-trace` header the
 * browser sets (once its tracing runs); without, a document request whose
 * `Server-Timing` header tells it (the header the browser SDK reads from the
 * navigation's timing).
 */
async function submitActionForm(page: Page, javaScriptEnabled: boolean): Promise<string> {
  await page.goto("/fixtures/action-error");
  if (javaScriptEnabled) await waitForTracing(page);
  await page.getByLabel("Note").fill("hello");
  const post = page.waitForRequest(isFormPostTo("/fixtures/action-error"));
  await page.getByRole("button", { name: "Send" }).click();
  const request = await post;
  if (javaScriptEnabled) return traceOfRequest(request);
  const timing = (await (await request.response())?.headerValue("server-timing")) ?? "";
  return parseSentryTrace(/sentry-trace;desc="([^"]+)"/.exec(timing)?.[1]).traceId;
}

test.describe("unexpected server errors: one event each, with the digest of the page", () => {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
      test.use({ javaScriptEnabled });

      test("loader error on a document request", async ({ page, app, recorder }) => {
        const fresh = fromNowOn(recorder);
        const response = await page.goto("/fixtures/loader-error");
        expect(response?.status()).toBe(500);
        const { traceId } = await pageTrace(page);
        const digest = await digestOnPage(page);
        if (javaScriptEnabled) await waitForPageload(recorder, traceId);
        await expectOneServerEvent(recorder, app, { traceId, digest, error: LOADER_ERROR });
        // Hydrating the error page reports nothing: the server already did.
        expect(recorder.items().filter(fresh(isBrowserEvent))).toEqual([]);
      });

      test("render error on a document request", async ({ page, app, recorder }) => {
        const fresh = fromNowOn(recorder);
        const response = await page.goto("/fixtures/render-error");
        expect(response?.status()).toBe(500);
        const { traceId } = await pageTrace(page);
        const digest = await digestOnPage(page);
        if (javaScriptEnabled) await waitForPageload(recorder, traceId);
        await expectOneServerEvent(recorder, app, { traceId, digest, error: RENDER_ERROR });
        expect(recorder.items().filter(fresh(isBrowserEvent))).toEqual([]);
      });

      test("action error on a form post", async ({ page, app, recorder }) => {
        const fresh = fromNowOn(recorder);
        const traceId = await submitActionForm(page, javaScriptEnabled);
        const digest = await digestOnPage(page);
        await expectOneServerEvent(recorder, app, { traceId, digest, error: ACTION_ERROR });
        expect(recorder.items().filter(fresh(isBrowserEvent))).toEqual([]);
      });
    });
  }

  test("loader error during a client navigation (single fetch)", async ({ page, app, recorder }) => {
    await page.goto("/fixtures/items/1");
    await waitForTracing(page);
    const fresh = fromNowOn(recorder);
    const dataRequest = page.waitForRequest((request) =>
      request.url().includes("/fixtures/loader-error.data"),
    );
    await clientNavigate(page, "/fixtures/loader-error");
    const traceId = await traceOfRequest(await dataRequest);
    const digest = await digestOnPage(page);
    await expectOneServerEvent(recorder, app, { traceId, digest, error: LOADER_ERROR });
    // The browser only sees Remix's sanitized "Unexpected Server Error"; it reports nothing.
    expect(recorder.items().filter(fresh(isBrowserEvent))).toEqual([]);
  });
});

test.describe("thrown Responses", () => {
  test("a thrown 5xx Response is exactly one event, tagged with the digest and request id of its log line", async ({
    page,
    recorder,
    app,
  }) => {
    const fresh = fromNowOn(recorder);
    const response = await page.goto("/fixtures/server-error-response");
    expect(response?.status()).toBe(500);
    const { traceId } = await pageTrace(page);
    await waitForPageload(recorder, traceId);
    const digest = await digestOnPage(page);

    const events = await settledItems(recorder, fresh(isErrorEvent), 1);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.platform).toBe("node");
    expect(traceIdOf(events[0]!)).toBe(traceId);
    expect(thrown(events[0]!)).toMatchObject({
      type: "ThrownResponse",
      value: "500 Response, text/plain body",
      mechanism: { type: "auto.function.remix.server", handled: false },
    });
    const line = await app.waitForLog((entry) => entry.digest === digest);
    expect(events[0]!.payload.tags).toMatchObject({ digest, request_id: line.requestId });
  });

  // `json()` on Remix 2, `data()` on React Router 8: an empty body, the words in the status text.
  test("a thrown 5xx json() keeps its status text, on the event and the log line alike", async ({
    page,
    recorder,
    app,
  }) => {
    const fresh = fromNowOn(recorder);
    const response = await page.goto("/fixtures/server-error-json");
    expect(response?.status()).toBe(500);
    const digest = await digestOnPage(page);
    const events = await settledItems(recorder, fresh(isErrorEvent), 1);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.tags?.digest).toBe(digest);
    expect(thrown(events[0]!)).toMatchObject({ type: "ThrownResponse", value: "500 Payment provider down" });
    const line = await app.waitForLog((entry) => entry.digest === digest);
    expect(line).toMatchObject({
      status: 500,
      err: { type: "ThrownResponse", message: "500 Payment provider down" },
    });
  });

  test("a thrown 4xx Response, an unknown path and a redirect are no events", async ({
    page,
    request,
    recorder,
  }) => {
    const fresh = fromNowOn(recorder);
    expect((await page.goto("/fixtures/not-found"))?.status()).toBe(404);
    await waitForTracing(page);
    const notFound = await pageTrace(page);
    expect((await page.goto("/nope"))?.status()).toBe(404);
    await page.goto("/fixtures/redirect");
    await expect(page).toHaveURL(/\/fixtures\/items\/1$/);
    await waitForTracing(page);
    const redirected = await pageTrace(page);
    // And the same requests as single fetches.
    for (const path of ["/fixtures/not-found.data", "/nope.data", "/fixtures/redirect.data"]) {
      expect([202, 404]).toContain((await request.get(path, { maxRedirects: 0 })).status());
    }

    // These did arrive, so the requests were seen by both SDKs...
    await recorder.waitForItems(
      (item) =>
        isTransaction(item) &&
        [notFound.traceId, redirected.traceId].includes(traceIdOf(item)!) &&
        opOf(item) === "pageload",
      { count: 2 },
    );
    await recorder.waitForItem(
      (item) => isTransaction(item) && item.payload.transaction === "GET /fixtures/redirect",
    );
    // ...and none of them is an error event.
    expect(await settledItems(recorder, fresh(isErrorEvent), 0)).toEqual([]);
  });
});

test.describe("browser exceptions: one event each", () => {
  /** Exactly one browser event with `message`, unhandled. */
  async function expectOneBrowserEvent(
    recorder: Recorder,
    fresh: ReturnType<typeof fromNowOn>,
    message: string,
  ) {
    const events = await settledItems(recorder, fresh(isErrorEvent), 1);
    expect(events.map((event) => thrown(event).value)).toEqual([message]);
    expect(events[0]!.payload.platform).toBe("javascript");
    expect(thrown(events[0]!).mechanism.handled).toBe(false);
    expect(thrown(events[0]!).stacktrace.frames.length).toBeGreaterThan(0);
  }

  test("a render error after hydration", async ({ page, recorder }) => {
    const fresh = fromNowOn(recorder);
    await page.goto("/fixtures/client-render-error");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("client-side exception");
    await expectOneBrowserEvent(recorder, fresh, "Fixture: client render failed");
  });

  test("an event handler error that reaches the boundary", async ({ page, recorder }) => {
    await page.goto("/fixtures/event-error");
    await waitForHydration(page);
    const fresh = fromNowOn(recorder);
    await page.getByRole("button", { name: "Fail into boundary" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("client-side exception");
    await expectOneBrowserEvent(recorder, fresh, "Fixture: handler error reached the boundary");
  });

  test("an uncaught event handler error", async ({ page, recorder }) => {
    await page.goto("/fixtures/event-error");
    await waitForHydration(page);
    const fresh = fromNowOn(recorder);
    await page.getByRole("button", { name: "Fail uncaught" }).click();
    await expectOneBrowserEvent(recorder, fresh, "Fixture: uncaught handler error");
    // Uncaught, so the page stays as it was.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Event error fixture");
  });

  // React 18 (Remix 2) reports one mismatch as several recoverable errors
  // (418, then 423 as it falls back to rendering the root), each its own event;
  // React 19 reports it once, to the root's onRecoverableError (entry.client).
  test("a hydration mismatch", async ({ page, recorder }) => {
    test.skip(FRAMEWORK === "remix-2", "React 18 reports one mismatch as several errors");
    const fresh = fromNowOn(recorder);
    await page.goto("/fixtures/hydration-mismatch");
    await waitForHydration(page);
    // React recovered by rendering the browser's version.
    await expect(page.getByText("Rendered in the browser")).toBeVisible();
    const events = await settledItems(recorder, fresh(isErrorEvent), 1);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.platform).toBe("javascript");
    // Production React names the error by its number (418: hydration failed).
    expect(thrown(events[0]!).value).toMatch(/Hydration failed|react\.dev\/errors\/418/);
    expect(thrown(events[0]!).mechanism.handled).toBe(false);
  });

  test("a client loader error", async ({ page, recorder }) => {
    await page.goto("/fixtures/items/1");
    await waitForHydration(page);
    const fresh = fromNowOn(recorder);
    await clientNavigate(page, "/fixtures/client-loader-error");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("client-side exception");
    await expectOneBrowserEvent(recorder, fresh, "Fixture: client loader failed");
    // The server's loader of that route ran fine: no server event either.
    expect(
      recorder.items().filter(fresh((item) => isErrorEvent(item) && item.payload.platform === "node")),
    ).toEqual([]);
  });
});
