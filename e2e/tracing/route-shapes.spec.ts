/**
 * Product-shaped routes (e2e/fixtures/routes.ts's `shapePages`: a list and
 * its items under a layout, a parent page without an index child, a pathless
 * layout, an optional segment, a splat under a prefix, a form on a nested
 * route), as they reached the recorder: for each page, the server transaction
 * and the page load are named by its route pattern with source `route`, the
 * name is in the trace's sampling context from the start (the page's
 * `baggage`, `Server-Timing`, both envelopes' trace headers), and a client
 * navigation to it is named the same.
 */
import { shapePages } from "../fixtures/routes";
import type { EnvelopeItem, Recorder } from "../../test-support/sentry-recorder";
import {
  clientNavigate,
  expect,
  fromNowOn,
  isTransaction,
  openTraced,
  opOf,
  pageTrace,
  settledItems,
  test,
  traceIdOf,
  waitForHydration,
  waitForTracing,
} from "../support/spec-helpers";

// Its tests share only the worker's app and recorder: spread over every worker, the file makes no tail.
test.describe.configure({ mode: "parallel" });

/** Exactly one transaction of `op` matching `where` arrives; it is returned. */
async function one(recorder: Recorder, op: string, where: (item: EnvelopeItem) => boolean) {
  const items = await settledItems(
    recorder,
    (item) => isTransaction(item) && opOf(item) === op && where(item),
    1,
  );
  expect(items, op).toHaveLength(1);
  return items[0]!;
}

/** The `sentry-transaction` of a `baggage` value, decoded. */
function baggageTransaction(baggage: string): string | undefined {
  const entry = baggage.split(",").find((part) => part.trim().startsWith("sentry-transaction="));
  return entry && decodeURIComponent(entry.split("=")[1]!);
}

/** The trace header of the envelope `item` arrived in (its dynamic sampling context). */
function envelopeTrace(recorder: Recorder, item: EnvelopeItem): Record<string, unknown> | undefined {
  return recorder.envelopes.find((envelope) => envelope.items.includes(item))?.header.trace as
    Record<string, unknown> | undefined;
}

/** Named `name` with source `route`; `traceName`: the name its trace's sampling context carries. */
function expectNamed(recorder: Recorder, item: EnvelopeItem, name: string, traceName: string): void {
  expect(item.payload.transaction).toBe(name);
  expect(item.payload.transaction_info).toEqual({ source: "route" });
  // The span agrees (Sentry 11's attribute; the browser's SDK 10 keeps it elsewhere).
  if (opOf(item) === "http.server")
    expect(item.payload.contexts.trace.data["sentry.segment.name.source"]).toBe("route");
  expect(envelopeTrace(recorder, item)?.transaction).toBe(traceName);
}

const urlPath = (item: EnvelopeItem) => item.payload?.contexts?.trace?.data?.["url.path"];

for (const { path, pattern } of shapePages) {
  test(`${path} is named ${pattern}, from the server's span to a navigation`, async ({ page, recorder }) => {
    const response = await openTraced(page, path);
    expect(response?.status()).toBe(200);
    const meta = await pageTrace(page);
    expect(baggageTransaction(meta.baggage)).toBe(`GET ${pattern}`);
    const serverTiming = response?.headers()["server-timing"] ?? "";
    expect(baggageTransaction(/baggage;desc="([^"]*)"/.exec(serverTiming)?.[1] ?? "")).toBe(`GET ${pattern}`);

    const sameTrace = (item: EnvelopeItem) => traceIdOf(item) === meta.traceId;
    expectNamed(recorder, await one(recorder, "http.server", sameTrace), `GET ${pattern}`, `GET ${pattern}`);
    // The page load continues the server's trace, and with it its sampling context.
    expectNamed(recorder, await one(recorder, "pageload", sameTrace), pattern, `GET ${pattern}`);

    // A client navigation to it from the start page: a trace of its own.
    await page.goto("/");
    await waitForTracing(page);
    const fresh = fromNowOn(recorder);
    await clientNavigate(page, path);
    await waitForHydration(page);
    const navigation = await one(
      recorder,
      "navigation",
      fresh((item) => urlPath(item) === path),
    );
    expect(navigation.payload.transaction).toBe(pattern);
    expect(navigation.payload.transaction_info).toEqual({ source: "route" });
  });
}

test("a form on a nested route: the post is named by its route, and so is where it leads", async ({
  page,
  recorder,
}) => {
  await openTraced(page, "/fixtures/shapes/list/7/edit");
  const fresh = fromNowOn(recorder);
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForURL("**/fixtures/shapes/list/7");
  const post = await one(
    recorder,
    "http.server",
    fresh((item) => item.payload.request?.method === "POST"),
  );
  // It continues the navigation's trace (the submission starts it), whose sampling context was
  // fixed when the post went out: named by the form's page, before the redirect.
  expectNamed(recorder, post, "POST /fixtures/shapes/list/:id/edit", "/fixtures/shapes/list/:id/edit");
  const navigation = await one(
    recorder,
    "navigation",
    fresh(() => true),
  );
  expect(traceIdOf(navigation)).toBe(traceIdOf(post));
  expect(navigation.payload.transaction).toBe("/fixtures/shapes/list/:id");
});
