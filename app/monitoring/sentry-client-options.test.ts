/**
 * What the browser side hands to its SDK: sentry.client.ts is loaded with a
 * stand-in for Sentry.init, to see the options without starting the SDK. (The
 * React Router 8 upgrade replaces this file: the browser moves to Sentry's 11
 * line, where privacy is set in other terms.)
 */
import { afterEach, expect, it, vi } from "vitest";
import { getPublicEnv, parseEnv } from "~/env.server";

vi.mock("@sentry/remix", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@sentry/remix")>()),
  init: vi.fn(),
}));

afterEach(() => vi.unstubAllGlobals());

// Loading @sentry/remix here loads its server entry and, with it, its own @sentry/node 10 tree
// (the server's SDK is 11.x, so nothing is shared): about 1.5 s on an idle machine, over 5 s
// with the whole suite running on 2 cores.
it("hands the limits and privacy to the browser SDK", { timeout: 30_000 }, async () => {
  vi.stubGlobal("window", {});
  const Sentry = await import("@sentry/remix");
  const { initClientSentry } = await import("./sentry.client");
  vi.mocked(Sentry.init).mockClear();
  initClientSentry(getPublicEnv(parseEnv({ SENTRY_DSN: "https://public@o1.ingest.example/42" })));
  expect(Sentry.init).toHaveBeenCalledTimes(1);
  const options = vi.mocked(Sentry.init).mock.calls[0]![0]! as Record<string, unknown>;
  expect(options.maxBreadcrumbs).toBe(100);
  expect(options.transportOptions).toEqual({ bufferSize: 64 });
  // 10.x: privacy by sendDefaultPii; a dataCollection would switch every key it does not name to collect-all.
  expect(options.sendDefaultPii).toBe(false);
  expect(options).not.toHaveProperty("dataCollection");
});
