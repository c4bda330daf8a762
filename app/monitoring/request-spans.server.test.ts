import type { IncomingMessage } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { requestRateOf, requestTraceDecider, skipsRequestSpan } from "./request-spans.server";
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
afterAll(() => sdk.node.close(0));

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
