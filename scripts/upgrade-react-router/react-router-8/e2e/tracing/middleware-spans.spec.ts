/**
 * Route middleware in a request's trace, in real Chromium against the production build with the
 * real SDKs and the local recorder: React Router's instrumentations give the middleware its own
 * span, with the loader's under it (the loaders run inside its `next()`), and a middleware that
 * throws is one event, one log line and the digest on the page, as a loader that throws is.
 */
import type { Request } from "@playwright/test";
import type { AppServer } from "../../test-support/app-server";
import type { EnvelopeItem, Recorder } from "../../test-support/sentry-recorder";
import {
  clientNavigate,
  digestOnPage,
  expect,
  fromNowOn,
  isBrowserEvent,
  isErrorEvent,
  isTransaction,
  opOf,
  pageTrace,
  parseSentryTrace,
  settledItems,
  test,
  traceIdOf,
  waitForTracing,
} from "../support/spec-helpers";

interface Span {
  op?: string;
  span_id: string;
  parent_span_id?: string;
  description?: string;
  status?: string;
  data?: Record<string, unknown>;
}

async function serverTransaction(recorder: Recorder, traceId: string): Promise<EnvelopeItem> {
  const items = await settledItems(
    recorder,
    (item) => isTransaction(item) && opOf(item) === "http.server" && traceIdOf(item) === traceId,
    1,
  );
  expect(items).toHaveLength(1);
  return items[0]!;
}

const spansOf = (item: EnvelopeItem, op: string) =>
  (item.payload.spans as Span[]).filter((span) => span.op === op);

/** The one event of the trace, with the page's digest; the one log line with it. */
async function expectOneFailure(recorder: Recorder, app: AppServer, traceId: string, digest: string) {
  const events = await settledItems(recorder, (item) => isErrorEvent(item) && traceIdOf(item) === traceId, 1);
  expect(events).toHaveLength(1);
  expect(events[0]!.payload.tags?.digest).toBe(digest);
  expect(events[0]!.payload.exception.values.at(-1).value).toContain("Fixture: middleware failed");
  const line = await app.waitForLog((entry) => entry.digest === digest);
  expect(app.logLines().filter((entry) => entry.digest === digest)).toHaveLength(1);
  expect(line.level).toBe("error");
}

test("a traced request holds its middleware's span, and the loader's under it", async ({
  page,
  recorder,
}) => {
  const response = await page.goto("/fixtures/middleware");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ran the loader, after the middleware");
  const server = await serverTransaction(recorder, (await pageTrace(page)).traceId);
  expect(server.payload.transaction).toBe("GET /fixtures/middleware");

  const [middleware, ...more] = spansOf(server, "function.react_router.middleware");
  expect(more).toEqual([]);
  expect(middleware?.description).toMatch(/fixtures\/routes\/middleware$/);
  expect(middleware?.data?.["http.route"]).toBe("/fixtures/middleware");
  const loaders = spansOf(server, "function.react_router.loader");
  expect(loaders.map((span) => [span.description, span.parent_span_id])).toEqual([
    [middleware!.description, middleware!.span_id],
  ]);
});

test("a middleware that throws on a document request: one event, one line, the page's digest", async ({
  page,
  app,
  recorder,
}) => {
  const response = await page.goto("/fixtures/middleware?fail");
  expect(response?.status()).toBe(500);
  const { traceId } = await pageTrace(page);
  await expectOneFailure(recorder, app, traceId, await digestOnPage(page));
  const [middleware] = spansOf(
    await serverTransaction(recorder, traceId),
    "function.react_router.middleware",
  );
  expect(middleware?.status).toBe("internal_error");
  expect(spansOf(await serverTransaction(recorder, traceId), "function.react_router.loader")).toEqual([]);
});

test("a middleware that throws during a client navigation (single fetch): the same", async ({
  page,
  app,
  recorder,
}) => {
  await page.goto("/fixtures/items/1");
  await waitForTracing(page);
  const fresh = fromNowOn(recorder);
  const dataRequest = page.waitForRequest((request: Request) =>
    request.url().includes("/fixtures/middleware.data"),
  );
  await clientNavigate(page, "/fixtures/middleware?fail");
  const traceId = parseSentryTrace((await dataRequest).headers()["sentry-trace"]).traceId;
  await expectOneFailure(recorder, app, traceId, await digestOnPage(page));
  expect(recorder.items().filter(fresh(isBrowserEvent))).toEqual([]);
});
