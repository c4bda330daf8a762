/**
 * Transactions, in real Chromium against the production
 * build with the real SDKs and the local recorder:
 *  - page loads, navigations and server transactions are named by route
 *    pattern, with source `route`, and carry loader and action spans;
 *  - requests the catch-all served are not traced at all, a 404 thrown by a
 *    real route keeps its route's name, and no 404 is an error event;
 *  - the page load continues the trace of its document request;
 *  - the sample rate decides on the server, and the browser follows.
 */
import type { Page, Request } from "@playwright/test";
import { ROOT_DATA_PATH } from "../../app/routing/data-url";
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "../../test-support/app-server";
import type { EnvelopeItem, Recorder } from "../../test-support/sentry-recorder";
import {
  clientNavigate,
  expect,
  fromNowOn,
  isErrorEvent,
  isFormPostTo,
  isTransaction,
  newTrace,
  opOf,
  pageTrace,
  parseSentryTrace,
  reportingTo,
  settledItems,
  test,
  traceIdOf,
  waitForHydration,
  waitForTracing,
} from "../support/spec-helpers";

test.use({ serverStarts: 1 }); // an app sampling at 0
// Its tests share only the worker's app and recorder (the app at 0 is one test's): spread over every
// worker, the file makes no tail.
test.describe.configure({ mode: "parallel" });

/**
 * The path a transaction is about: where a page load or navigation started
 * (its `url.path`; `request.url` is wherever the page is when it is sent), or
 * the URL of a server request.
 */
function pathOf(item: EnvelopeItem): string | undefined {
  const started = item.payload?.contexts?.trace?.data?.["url.path"];
  if (typeof started === "string") return started;
  const url = item.payload?.request?.url;
  return typeof url === "string" ? new URL(url).pathname : undefined;
}

const isServerTransaction = (item: EnvelopeItem) => isTransaction(item) && opOf(item) === "http.server";

type Scope = ReturnType<typeof fromNowOn>;

/**
 * Waits for exactly one transaction of `op` for `path`, and returns it. It is
 * told apart from earlier tests' by its trace id or, for navigations (which
 * start a trace of their own), by arriving after `fresh` was created.
 */
async function oneTransaction(
  recorder: Recorder,
  {
    op,
    path,
    traceId,
    fresh,
  }: { op: string; path: string } & ({ traceId: string; fresh?: never } | { fresh: Scope; traceId?: never }),
): Promise<EnvelopeItem> {
  const matches = await settledItems(
    recorder,
    (fresh ?? ((predicate) => predicate))(
      (item) =>
        isTransaction(item) &&
        opOf(item) === op &&
        pathOf(item) === path &&
        (traceId === undefined || traceIdOf(item) === traceId),
    ),
    1,
  );
  expect(matches, `${op} transactions for ${path}`).toHaveLength(1);
  return matches[0]!;
}

function expectNamed(item: EnvelopeItem, name: string): void {
  expect(item.payload.transaction).toBe(name);
  expect(item.payload.transaction_info).toEqual({ source: "route" });
}

function spanOps(item: EnvelopeItem): string[] {
  return (item.payload.spans as { op?: string }[]).map((span) => span.op ?? "");
}

async function traceOfRequest(request: Request): Promise<string> {
  return parseSentryTrace(await request.headerValue("sentry-trace")).traceId;
}

/** Clicks a link and resolves with the trace its single-fetch request continued. */
async function clickLink(page: Page, name: string, dataPath: string): Promise<string> {
  const dataRequest = page.waitForRequest((request) => new URL(request.url()).pathname === dataPath);
  await page.getByRole("link", { name, exact: true }).click();
  return traceOfRequest(await dataRequest);
}

test.describe("transactions are named by route pattern", () => {
  test("the start page: page load `/` and server `GET /`", async ({ page, recorder }) => {
    await page.goto("/");
    const { traceId } = await pageTrace(page);

    const server = await oneTransaction(recorder, { op: "http.server", path: "/", traceId });
    expectNamed(server, "GET /");
    // No route of `/` has a loader (the root's settings come from the document renderer).
    expect(spanOps(server)).not.toContain("loader.remix");
    expectNamed(await oneTransaction(recorder, { op: "pageload", path: "/", traceId }), "/");
  });

  test("a dynamic route: document, navigations and single fetches", async ({ page, recorder }) => {
    await page.goto("/fixtures/items/1");
    await waitForTracing(page);
    const { traceId } = await pageTrace(page);

    const document = await oneTransaction(recorder, {
      op: "http.server",
      path: "/fixtures/items/1",
      traceId,
    });
    expectNamed(document, "GET /fixtures/items/:id");
    // One loader span per matched route with a loader: the item's (the root has none).
    expect(spanOps(document).filter((op) => op === "loader.remix")).toHaveLength(1);
    expectNamed(
      await oneTransaction(recorder, { op: "pageload", path: "/fixtures/items/1", traceId }),
      "/fixtures/items/:id",
    );

    // A navigation to another item: its single fetch and the navigation itself.
    const fresh = fromNowOn(recorder);
    const itemTrace = await clickLink(page, "Item 2", "/fixtures/items/2.data");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Item 2");
    const itemData = await oneTransaction(recorder, {
      op: "http.server",
      path: "/fixtures/items/2.data",
      traceId: itemTrace,
    });
    expectNamed(itemData, "GET /fixtures/items/:id");
    expect(spanOps(itemData)).toContain("loader.remix");

    // Home ends the navigation to item 2. No route of `/` has a loader, so the
    // browser fetches nothing; the single fetch of `/` once a product gives it
    // a loader (`/_root.data`, on React Router 8 `/_.data`) is named after the page too.
    await page.getByRole("link", { name: "Home", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Remix + Sentry scaffold");
    const home = newTrace();
    expect((await page.request.get(ROOT_DATA_PATH, { headers: home.headers })).status()).toBe(200);
    expectNamed(
      await oneTransaction(recorder, { op: "http.server", path: ROOT_DATA_PATH, traceId: home.traceId }),
      "GET /",
    );
    const toItem = await oneTransaction(recorder, { op: "navigation", path: "/fixtures/items/2", fresh });
    expectNamed(toItem, "/fixtures/items/:id");
    // Navigate away once more, so the navigation to `/` ends and is sent.
    await clientNavigate(page, "/fixtures/items/1");
    expectNamed(await oneTransaction(recorder, { op: "navigation", path: "/", fresh }), "/");
  });

  test("a form post: `POST /fixtures/action-error` with the action's span", async ({ page, recorder }) => {
    await page.goto("/fixtures/action-error");
    await waitForTracing(page);
    await page.getByLabel("Note").fill("hello");
    const post = page.waitForRequest(isFormPostTo("/fixtures/action-error"));
    await page.getByRole("button", { name: "Send" }).click();
    const traceId = await traceOfRequest(await post);

    const posts = await settledItems(
      recorder,
      (item) =>
        isServerTransaction(item) &&
        traceIdOf(item) === traceId &&
        item.payload.transaction.startsWith("POST"),
      1,
    );
    expect(posts).toHaveLength(1);
    expectNamed(posts[0]!, "POST /fixtures/action-error");
    expect(spanOps(posts[0]!)).toContain("action.remix");
  });
});

test.describe("not found", () => {
  const isNotFoundName = (item: EnvelopeItem) =>
    ["/*", "GET /*", "POST /*"].includes(item.payload?.transaction);

  test("a document request the catch-all served is no transaction", async ({ page, recorder }) => {
    const fresh = fromNowOn(recorder);
    expect((await page.goto("/nope"))?.status()).toBe(404);
    await expect(page.getByText("This page could not be found.")).toBeVisible();
    // Leaving the page ends its page load: once the next navigation is
    // recorded, the page load of /nope would have been too.
    await waitForTracing(page);
    await clientNavigate(page, "/");
    await oneTransaction(recorder, { op: "navigation", path: "/", fresh });

    const notFound = await settledItems(
      recorder,
      fresh((item) => isTransaction(item) && (pathOf(item) === "/nope" || isNotFoundName(item))),
      0,
    );
    expect(notFound).toEqual([]);
    expect(recorder.items().filter(fresh(isErrorEvent))).toEqual([]);
  });

  test("a client navigation the catch-all served is no transaction", async ({ page, recorder }) => {
    await page.goto("/fixtures/items/1");
    await waitForTracing(page);
    const { traceId } = await pageTrace(page);
    await oneTransaction(recorder, { op: "http.server", path: "/fixtures/items/1", traceId });
    const fresh = fromNowOn(recorder);

    await clickLink(page, "A missing page", "/fixtures/missing-page.data");
    await expect(page.getByText("This page could not be found.")).toBeVisible();
    await clientNavigate(page, "/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Remix + Sentry scaffold");
    await clientNavigate(page, "/fixtures/items/1");
    await oneTransaction(recorder, { op: "navigation", path: "/", fresh });

    const all = await settledItems(recorder, fresh(isTransaction), 0);
    expect(
      all.filter((item) => pathOf(item)?.startsWith("/fixtures/missing-page") || isNotFoundName(item)),
    ).toEqual([]);
    // The server traced only the single fetch of item 1 (`/` has no loader to
    // fetch): nothing of the missing page, and no middleware.
    expect(
      all
        .filter(isTransaction)
        .filter((item) => item.payload.platform === "node")
        .map((item) => item.payload.transaction)
        .sort(),
    ).toEqual(["GET /fixtures/items/:id"]);
    expect(recorder.items().filter(fresh(isErrorEvent))).toEqual([]);
  });

  test("a single fetch of an unknown path is no transaction", async ({ request, recorder }) => {
    const fresh = fromNowOn(recorder);
    const unknown = newTrace();
    const known = newTrace();
    expect((await request.get("/nope.data", { headers: unknown.headers })).status()).toBe(404);
    expect((await request.get("/fixtures/items/1.data", { headers: known.headers })).status()).toBe(200);

    // The known path's transaction arrives; the unknown one's never does.
    await oneTransaction(recorder, {
      op: "http.server",
      path: "/fixtures/items/1.data",
      traceId: known.traceId,
    });
    const traced = await settledItems(recorder, (item) => traceIdOf(item) === unknown.traceId, 0);
    expect(traced).toEqual([]);
    expect(recorder.items().filter(fresh(isErrorEvent))).toEqual([]);
  });

  test("a 404 thrown by a real route keeps its route's name", async ({ page, recorder }) => {
    const fresh = fromNowOn(recorder);
    expect((await page.goto("/fixtures/not-found"))?.status()).toBe(404);
    const { traceId } = await pageTrace(page);

    expectNamed(
      await oneTransaction(recorder, { op: "http.server", path: "/fixtures/not-found", traceId }),
      "GET /fixtures/not-found",
    );
    expectNamed(
      await oneTransaction(recorder, { op: "pageload", path: "/fixtures/not-found", traceId }),
      "/fixtures/not-found",
    );
    expect(recorder.items().filter(fresh(isErrorEvent))).toEqual([]);
  });
});

test("the page load continues the trace of its document request", async ({ page, recorder }) => {
  const fresh = fromNowOn(recorder);
  await page.goto("/fixtures/items/1");
  const meta = await pageTrace(page);
  expect(meta.sampled).toBe("1");
  expect(meta.baggage.split(",")).toEqual(
    expect.arrayContaining([`sentry-trace_id=${meta.traceId}`, "sentry-sampled=true"]),
  );

  const server = await oneTransaction(recorder, {
    op: "http.server",
    path: "/fixtures/items/1",
    traceId: meta.traceId,
  });
  const pageload = await oneTransaction(recorder, { op: "pageload", path: "/fixtures/items/1", fresh });
  expect(traceIdOf(pageload)).toBe(traceIdOf(server));
  // Its parent is the server's request span, which rendered the meta tags.
  expect(pageload.payload.contexts.trace.parent_span_id).toBe(meta.spanId);
  expect(server.payload.contexts.trace.span_id).toBe(meta.spanId);
});

test.describe("sampling", () => {
  test("at 1, server and browser transactions both arrive", async ({ page, recorder }) => {
    const fresh = fromNowOn(recorder);
    await page.goto("/fixtures/items/1");
    await waitForTracing(page);
    const meta = await pageTrace(page);
    expect(meta.baggage).toContain("sentry-sampled=true");
    await page.getByRole("link", { name: "Item 2" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Item 2");
    await clientNavigate(page, "/");

    const arrived = (op: string) =>
      recorder.waitForItem(fresh((item) => isTransaction(item) && opOf(item) === op));
    await Promise.all([arrived("http.server"), arrived("pageload"), arrived("navigation")]);
  });

  test.describe("at 0", () => {
    let unsampled: AppServer;
    test.beforeAll(async ({ recorder }) => {
      test.setTimeout(SERVER_HOOK_LIMIT_MS);
      unsampled = await startApp({
        env: reportingTo(recorder, "0"),
      });
    });
    test.afterAll(async () => {
      await unsampled?.stop();
    });

    test("no transaction arrives, and the page's baggage says sampled=false", async ({ page, recorder }) => {
      const fromThisApp = (item: EnvelopeItem) =>
        item.payload?.request?.url?.startsWith(unsampled.url) === true;

      await page.goto(`${unsampled.url}/fixtures/items/1`);
      await waitForHydration(page);
      const meta = await pageTrace(page);
      expect(meta.sampled).toBe("0");
      expect(meta.baggage).toContain("sentry-sampled=false");
      // An untraced page's sampling context carries its route name too, for the services it calls.
      expect(meta.baggage.split(",")).toContain(
        `sentry-transaction=${encodeURIComponent("GET /fixtures/items/:id")}`,
      );
      await page.getByRole("link", { name: "Item 2" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Item 2");
      await clientNavigate(page, "/fixtures/event-error");
      await waitForHydration(page);

      // Errors still arrive from both sides, so both SDKs run and send.
      await page.getByRole("button", { name: "Fail uncaught" }).click();
      await page.goto(`${unsampled.url}/fixtures/loader-error`);
      await recorder.waitForItems((item) => isErrorEvent(item) && fromThisApp(item), { count: 2 });
      const platforms = recorder
        .items()
        .filter((item) => isErrorEvent(item) && fromThisApp(item))
        .map((item) => item.payload.platform);
      expect(platforms.sort()).toEqual(["javascript", "node"]);

      const transactions = await settledItems(
        recorder,
        (item) => isTransaction(item) && fromThisApp(item),
        0,
      );
      expect(transactions.map((item) => `${opOf(item)} ${item.payload.transaction}`)).toEqual([]);
    });
  });
});

// Under the default bound (SENTRY_TRACES_PER_SECOND): a burst under it is traced whole (decision 0090).
test("at 100 % on a quiet app, a page and its fetches, all at once, are each traced at the configured rate", async ({
  app,
  recorder,
}) => {
  // Quiet: what the worker's earlier requests told the budget has faded.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  // Ids of this test's own, so no earlier test's transaction is taken for one of its.
  const id = () => Math.floor(Math.random() * 1e12);
  const paths = [
    `/fixtures/items/${id()}`,
    ...Array.from({ length: 9 }, () => `/fixtures/items/${id()}.data`),
  ];
  const statuses = await Promise.all(paths.map(async (path) => (await fetch(app.url + path)).status));
  expect(statuses).toEqual(paths.map(() => 200));
  const arrived = await settledItems(
    recorder,
    (item) => isTransaction(item) && opOf(item) === "http.server" && paths.includes(pathOf(item) ?? ""),
    paths.length,
  );
  expect(arrived.map(pathOf).sort()).toEqual([...paths].sort());
  for (const item of arrived)
    expect(item.payload?.contexts?.trace?.data?.["sentry.sample_rate"], "the configured rate").toBe(1);
});
