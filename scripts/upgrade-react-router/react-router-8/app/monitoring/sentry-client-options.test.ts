/**
 * What the browser side hands to its SDK: sentry.client.ts is loaded with a
 * stand-in for Sentry.init, to see the options without starting the SDK.
 */
import { afterEach, expect, it, vi } from "vitest";
import { BrowserClient, makeFetchTransport } from "@sentry/react";
import { getPublicEnv, parseEnv } from "~/env.server";

vi.mock("@sentry/react", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@sentry/react")>()),
  init: vi.fn(),
}));

afterEach(() => vi.unstubAllGlobals());

it("hands the limits and privacy to the browser SDK", { timeout: 30_000 }, async () => {
  vi.stubGlobal("window", {});
  const Sentry = await import("@sentry/react");
  const { initClientSentry, BROWSER_DATA_COLLECTION } = await import("./sentry.client");
  vi.mocked(Sentry.init).mockClear();
  initClientSentry(getPublicEnv(parseEnv({ SENTRY_DSN: "https://public@o1.ingest.example/42" })));
  expect(Sentry.init).toHaveBeenCalledTimes(1);
  const options = vi.mocked(Sentry.init).mock.calls[0]![0]! as Record<string, unknown>;
  expect(options.maxBreadcrumbs).toBe(100);
  expect(options.transportOptions).toEqual({ bufferSize: 64 });
  // 11.x: no sendDefaultPii; every data collection key set, as its defaults collect everything.
  expect(options).not.toHaveProperty("sendDefaultPii");
  expect(options.dataCollection).toEqual(BROWSER_DATA_COLLECTION);
  expect(options.traceLifecycle).toBe("static");
  const client = new BrowserClient({
    integrations: [],
    stackParser: () => [],
    transport: makeFetchTransport,
    dataCollection: BROWSER_DATA_COLLECTION,
  });
  const resolved = client.getDataCollectionOptions();
  expect(Object.keys(BROWSER_DATA_COLLECTION).sort()).toEqual(Object.keys(resolved).sort());
  // As v10 with sendDefaultPii: false: no IP address, no cookies, the user agent and referrer only.
  expect(resolved).toMatchObject({ userInfo: false, cookies: false, httpBodies: [] });
  expect(resolved.httpHeaders).toEqual({ request: { allow: ["User-Agent", "Referer"] }, response: false });
});
