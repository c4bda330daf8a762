/**
 * A navigation's trace holds the requests that load its page, in real Chromium
 * against the production build with the real SDKs and the local recorder: the
 * browser's navigation transaction, the `.data` request it sends (its
 * `sentry-trace` header), and the server's transaction of that request with
 * its loader spans share one trace id, never the page load's.
 */
import type { Page, Request } from "@playwright/test";
import type { EnvelopeItem, Recorder } from "../../test-support/sentry-recorder";
import {
  expect,
  fromNowOn,
  isTransaction,
  openTraced,
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
  description?: string;
}
const spansOf = (item: EnvelopeItem) => item.payload.spans as Span[];

/** The path of a server transaction's request (`/a/b.data`). */
const requestPath = (item: EnvelopeItem) => new URL(item.payload?.request?.url ?? "http://x/").pathname;

function dataRequest(page: Page, method: string, path: string): Promise<Request> {
  return page.waitForRequest(
    (request) => request.method() === method && new URL(request.url()).pathname === path,
  );
}

/** From the headers the page gave the request: `headerValue()` may wait for the response. */
function traceOfRequest(request: Request): string {
  return parseSentryTrace(request.headers()["sentry-trace"]).traceId;
}

/** Exactly one item of what arrives from now on matches. */
async function one(
  recorder: Recorder,
  fresh: ReturnType<typeof fromNowOn>,
  predicate: (item: EnvelopeItem) => boolean,
): Promise<EnvelopeItem> {
  const matches = await settledItems(recorder, fresh(predicate), 1);
  expect(matches).toHaveLength(1);
  return matches[0]!;
}

const navigationNamed = (name: string) => (item: EnvelopeItem) =>
  isTransaction(item) && opOf(item) === "navigation" && item.payload.transaction === name;

const serverRequest = (method: string, path: string) => (item: EnvelopeItem) =>
  isTransaction(item) &&
  opOf(item) === "http.server" &&
  item.payload.request?.method === method &&
  requestPath(item) === path;

/** The server transaction continues the navigation's own request span for it, and holds `op` spans. */
function expectContinues(server: EnvelopeItem, navigation: EnvelopeItem, op: string): void {
  expect(traceIdOf(server)).toBe(traceIdOf(navigation));
  const parent = spansOf(navigation).find(
    (span) => span.span_id === server.payload.contexts.trace.parent_span_id,
  );
  expect(parent?.op).toBe("http.client");
  expect(parent?.description).toContain(requestPath(server));
  expect(spansOf(server).map((span) => span.op)).toContain(op);
}

test("a link from a list to its item, and back", async ({ page, recorder }) => {
  await page.goto("/fixtures/shapes/list");
  await waitForTracing(page);
  const pageload = await pageTrace(page);
  const fresh = fromNowOn(recorder);

  const itemData = dataRequest(page, "GET", "/fixtures/shapes/list/7.data");
  await page.getByRole("link", { name: "Item 7", exact: true }).click();
  const itemTrace = traceOfRequest(await itemData);
  // The list's layout and the item.
  await expect(page.getByText('Shape {"id":"7"}')).toHaveCount(2);

  const toItem = await one(recorder, fresh, navigationNamed("/fixtures/shapes/list/:id"));
  expect(traceIdOf(toItem)).toBe(itemTrace);
  expect(itemTrace).not.toBe(pageload.traceId);
  const server = await one(recorder, fresh, serverRequest("GET", "/fixtures/shapes/list/7.data"));
  expect(server.payload.transaction).toBe("GET /fixtures/shapes/list/:id");
  expectContinues(server, toItem, "loader.remix");

  // Back (the browser's own history, not a link) loads the list's index again, in a trace of its own.
  const listData = dataRequest(page, "GET", "/fixtures/shapes/list.data");
  await page.goBack();
  const listTrace = traceOfRequest(await listData);
  await expect(page.getByRole("link", { name: "Item 7", exact: true })).toBeVisible();
  const back = await one(recorder, fresh, navigationNamed("/fixtures/shapes/list"));
  expect(traceIdOf(back)).toBe(listTrace);
  expect([pageload.traceId, itemTrace]).not.toContain(listTrace);
  expectContinues(
    await one(recorder, fresh, serverRequest("GET", "/fixtures/shapes/list.data")),
    back,
    "loader.remix",
  );
});

test("a form on a nested route: its action, the redirect and the reload are one navigation", async ({
  page,
  recorder,
}) => {
  await openTraced(page, "/fixtures/shapes/list/7/edit");
  const pageload = await pageTrace(page);
  const fresh = fromNowOn(recorder);

  const post = dataRequest(page, "POST", "/fixtures/shapes/list/7/edit.data");
  const reload = dataRequest(page, "GET", "/fixtures/shapes/list/7.data");
  await page.getByRole("button", { name: "Save" }).click();
  const postTrace = traceOfRequest(await post);
  const reloadTrace = traceOfRequest(await reload);
  // The list's layout and the item.
  await expect(page.getByText('Shape {"id":"7"}')).toHaveCount(2);

  // Named by the page it landed on, as a navigation that followed a redirect is.
  const navigation = await one(recorder, fresh, navigationNamed("/fixtures/shapes/list/:id"));
  expect([postTrace, reloadTrace]).toEqual([traceIdOf(navigation), traceIdOf(navigation)]);
  expect(postTrace).not.toBe(pageload.traceId);
  const action = await one(recorder, fresh, serverRequest("POST", "/fixtures/shapes/list/7/edit.data"));
  expect(action.payload.transaction).toBe("POST /fixtures/shapes/list/:id/edit");
  expectContinues(action, navigation, "action.remix");
  expectContinues(
    await one(recorder, fresh, serverRequest("GET", "/fixtures/shapes/list/7.data")),
    navigation,
    "loader.remix",
  );
});

test("a navigation cancelled by another: each has its own trace", async ({ page, recorder }) => {
  await page.goto("/fixtures/items/1");
  await waitForTracing(page);
  const pageload = await pageTrace(page);
  const fresh = fromNowOn(recorder);

  const slowData = dataRequest(page, "GET", "/fixtures/slow.data");
  // Not awaited: the slow page's loader takes seconds, and the link below cancels it.
  await page.evaluate(() => {
    const router = (window as unknown as { __remixRouter: { navigate(to: string): Promise<void> } })
      .__remixRouter;
    void router.navigate("/fixtures/slow?ms=3000");
  });
  const slowTrace = traceOfRequest(await slowData);
  const itemData = dataRequest(page, "GET", "/fixtures/items/2.data");
  await page.getByRole("link", { name: "Item 2", exact: true }).click();
  const itemTrace = traceOfRequest(await itemData);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Item 2");

  expect(new Set([pageload.traceId, slowTrace, itemTrace]).size).toBe(3);
  expect(traceIdOf(await one(recorder, fresh, navigationNamed("/fixtures/slow")))).toBe(slowTrace);
  const toItem = await one(recorder, fresh, navigationNamed("/fixtures/items/:id"));
  expect(traceIdOf(toItem)).toBe(itemTrace);
  expectContinues(
    await one(recorder, fresh, serverRequest("GET", "/fixtures/items/2.data")),
    toItem,
    "loader.remix",
  );
});
