import type { IncomingMessage } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { recordServedRoutes } from "~/routing/request-route.server";
import { requestRateOf, requestTraceDecider, skipsRequestSpan, tagRequestSpan } from "./request-spans.server";
import type { RequestTrace } from "./request-trace.server";
import { loadServerSdk } from "./server-sdk.server";
import { traceBudget } from "./trace-budget.server";

const sdk = await loadServerSdk();
// Started as the server starts it (its async context: a scope per request), sending nowhere.
sdk.node.init({
  dsn: "http://public@127.0.0.1:9/1",
  transport: (options) => sdk.core.createTransport(options, async () => ({})),
  defaultIntegrations: false,
});
afterAll(() => {
  recordServedRoutes({});
  return sdk.node.close(0);
});

const request = (method: string, url: string, headers: Record<string, string> = {}) =>
  ({ method, url, headers }) as unknown as IncomingMessage;

const trace = (sampleRate: number): RequestTrace => ({
  traced: true,
  traceId: "a".repeat(32),
  sampleRand: 0,
  sampleRate,
  name: () => "GET /",
  nameAs: () => {},
});

describe("skipsRequestSpan and the SDK's sampler", () => {
  it("give each request's span its own rate, whichever request's callback ran last", () => {
    const decided = new Map([
      ["/a", trace(0.25)],
      ["/b", trace(0.5)],
    ]);
    const skip = skipsRequestSpan(sdk, (incoming) => decided.get(incoming.url!)!);
    // Each callback in its request's isolation scope, as the SDK calls it; then the spans start.
    const inScopeOf = (url: string) =>
      sdk.node.withIsolationScope((scope) => (skip(url, request("GET", url)), scope));
    const [a, b] = [inScopeOf("/a"), inScopeOf("/b")];
    expect(sdk.node.withIsolationScope(a, () => requestRateOf(sdk))).toBe(0.25);
    expect(sdk.node.withIsolationScope(b, () => requestRateOf(sdk))).toBe(0.5);
    expect(requestRateOf(sdk)).toBeUndefined();
  });

  it("decide a request the arrival did not by the one decision: HEAD, OPTIONS and assets never", () => {
    const decide = requestTraceDecider(sdk, { budget: traceBudget(1000), configuredRate: 1 });
    const skip = skipsRequestSpan(sdk, decide);
    for (const [method, url] of [
      ["HEAD", "/"],
      ["OPTIONS", "/"],
      ["GET", "/assets/entry.js"],
    ]) {
      expect(
        skip(url!, request(method!, url!, { "sentry-trace": `${"b".repeat(32)}-${"c".repeat(16)}-1` })),
      ).toBe(true);
    }
    expect(skip("/", request("GET", "/"))).toBe(false);
  });
});

describe("a request's route", () => {
  it("is matched once: its span is named from the match its arrival's decision made", () => {
    const root = { id: "root", path: "" };
    const orders = { id: "routes/orders.$id", parentId: "root", path: "orders/:id" };
    const catchAll = { id: "routes/$", parentId: "root", path: "*" };
    recordServedRoutes({ root, orders, catchAll });
    const decide = requestTraceDecider(sdk, { budget: traceBudget(1000), configuredRate: 1 });
    const arrival = request("GET", "/orders/42");
    expect(decide(arrival)).toMatchObject({ traced: true });
    // A new build between the two (an edit under the dev server): a second match would name it `/*`.
    recordServedRoutes({ root, catchAll });
    const span = new sdk.core.SentrySpan({ name: "GET", sampled: true });
    tagRequestSpan(sdk)(span, arrival);
    expect(sdk.core.spanToJSON(span)).toMatchObject({
      name: "GET /orders/:id",
      attributes: { "http.route": "/orders/:id" },
    });
    const later = request("GET", "/orders/42");
    tagRequestSpan(sdk)(span, later);
    expect(sdk.core.spanToJSON(span).name).toBe("GET /*");
  });
});
