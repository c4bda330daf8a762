import type { ErrorEvent, TransactionEvent } from "@sentry/core";
import { createTransport } from "@sentry/core";
import { NodeClient } from "@sentry/node";
import { describe, expect, it, vi } from "vitest";
import { parseEnv } from "~/env.server";
import {
  isDroppedTransaction,
  isIgnoredError,
  scrubEvent,
  SENTRY_LIMITS,
  sharedSentryOptions,
} from "./sentry-options";

// server-init.server.ts is loaded with a stand-in for Sentry.init, to see what it
// hands to the SDK without starting it (the browser's: sentry-client-options.test.ts).
vi.mock("@sentry/node", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@sentry/node")>()),
  init: vi.fn(),
}));

const settings = {
  SENTRY_DSN: "https://public@o1.ingest.example/42",
  SENTRY_ENVIRONMENT: "staging",
  SENTRY_RELEASE: "abc123",
  SENTRY_TRACES_SAMPLE_RATE: 0.25,
};

const errorEvent = (value: string): ErrorEvent => ({
  type: undefined,
  exception: { values: [{ type: "Error", value }] },
});

describe("sharedSentryOptions", () => {
  const options = sharedSentryOptions(settings);

  it("carries the configured settings and the limits of record", () => {
    expect(options).toMatchObject({
      dsn: settings.SENTRY_DSN,
      environment: "staging",
      release: "abc123",
      tracesSampleRate: 0.25,
      maxBreadcrumbs: 100,
      transportOptions: { bufferSize: 64 },
      enableLogs: false,
    });
    expect(SENTRY_LIMITS.defaultRateLimitBackoffSeconds).toBe(60);
  });

  it("leaves privacy to each side's SDK (its own terms, 10.x in the browser, 11.x on the server)", () => {
    expect(options).not.toHaveProperty("dataCollection");
    expect(options).not.toHaveProperty("sendDefaultPii");
  });

  it("drops ignored errors and scrubs the rest", () => {
    expect(options.beforeSend(errorEvent("Script error."))).toBeNull();
    const kept = options.beforeSend({ ...errorEvent("boom"), request: { cookies: { session: "s" } } });
    expect(kept?.request).toEqual({});
  });

  it("drops not-found transactions and keeps the others", () => {
    const transaction = (name: string): TransactionEvent => ({ type: "transaction", transaction: name });
    expect(options.beforeSendTransaction(transaction("/*"))).toBeNull();
    expect(options.beforeSendTransaction(transaction("GET /*"))).toBeNull();
    expect(options.beforeSendTransaction(transaction("GET /fixtures/items/:id"))).not.toBeNull();
  });
});

describe("isIgnoredError", () => {
  it("ignores cross-origin script errors and both ResizeObserver notices", () => {
    for (const message of [
      "Script error.",
      "Script error",
      "ResizeObserver loop limit exceeded",
      "ResizeObserver loop completed with undelivered notifications.",
    ]) {
      expect(isIgnoredError(errorEvent(message))).toBe(true);
      expect(isIgnoredError({ message })).toBe(true);
    }
  });

  it("reports everything else, including errors that merely mention the notices", () => {
    for (const message of [
      "TypeError: x is undefined",
      "Script error. in my code",
      "not a ResizeObserver loop limit exceeded",
    ]) {
      expect(isIgnoredError(errorEvent(message))).toBe(false);
    }
  });
});

describe("scrubEvent", () => {
  it("removes cookies, bodies, secret headers and the IP address", () => {
    const event: ErrorEvent = {
      type: undefined,
      request: {
        url: "http://app.example/x",
        cookies: { session: "secret" },
        data: "password=hunter2",
        headers: {
          Cookie: "session=secret",
          authorization: "Bearer secret",
          "x-api-key": "secret",
          "x-forwarded-for": "203.0.113.9",
          "user-agent": "test",
          Accept: "text/html",
        },
      },
      user: { ip_address: "203.0.113.9" },
    };
    const scrubbed = scrubEvent(event);
    expect(JSON.stringify(scrubbed)).not.toMatch(/secret|hunter2|203\.0\.113\.9/);
    expect(scrubbed.request?.headers).toEqual({ "user-agent": "test", Accept: "text/html" });
    expect(scrubbed.user).toBeUndefined();
  });

  it("keeps only the allowlisted headers among span attributes, and no cookie", () => {
    const event: TransactionEvent = {
      type: "transaction",
      contexts: {
        trace: {
          span_id: "0123456789abcdef",
          trace_id: "0123456789abcdef0123456789abcdef",
          data: {
            "http.method": "GET",
            "http.request.header.user_agent": "test",
            "http.request.header.accept_language": "en",
            "http.request.header.x_tenant": "secret",
            "http.request.header.cookie.theme": "secret",
            "http.request.header.cookie": "[Filtered]",
            "http.response.header.set_cookie.id": "secret",
            "http.response.header.content_type": "text/html",
          },
        },
      },
      spans: [
        {
          span_id: "1",
          trace_id: "0123456789abcdef0123456789abcdef",
          start_timestamp: 0,
          status: "ok",
          data: { "http.request.header.authorization": "secret", "code.function": "loader" },
        },
      ],
    };
    const scrubbed = scrubEvent(event);
    expect(JSON.stringify(scrubbed)).not.toMatch(/secret|Filtered/);
    expect(scrubbed.contexts?.trace?.data).toEqual({
      "http.method": "GET",
      "http.request.header.user_agent": "test",
      "http.request.header.accept_language": "en",
      "http.response.header.content_type": "text/html",
    });
    expect(scrubbed.spans?.[0]?.data).toEqual({ "code.function": "loader" });
  });

  it("keeps a user id the app set on purpose, and nothing else of the user", () => {
    const user = { id: "7", ip_address: "1.2.3.4", email: "ada@example.com", username: "Ada Lovelace" };
    expect(scrubEvent({ type: undefined, user }).user).toEqual({ id: "7" });
  });
});

describe("isDroppedTransaction", () => {
  it("drops the catch-all on both sides and listed operational paths", () => {
    expect(isDroppedTransaction("/*")).toBe(true);
    expect(isDroppedTransaction("POST /*")).toBe(true);
    expect(isDroppedTransaction("GET /healthz", ["/healthz"])).toBe(true);
    expect(isDroppedTransaction("GET /")).toBe(false);
    expect(isDroppedTransaction("/fixtures/*/x")).toBe(false);
    expect(isDroppedTransaction(undefined)).toBe(false);
  });
});

describe("the limits reach the server SDK", () => {
  async function optionsPassedToInit(
    sdk: { init: (options: object) => unknown },
    start: () => void | Promise<void>,
  ) {
    vi.mocked(sdk.init).mockClear();
    await start();
    expect(sdk.init).toHaveBeenCalledTimes(1);
    return vi.mocked(sdk.init).mock.calls[0]![0]! as Record<string, unknown>;
  }

  it("on the server", async () => {
    const { initServerSentry, SERVER_DATA_COLLECTION } = await import("./server-init.server");
    const options = await optionsPassedToInit(await import("@sentry/node"), () =>
      initServerSentry(parseEnv({ SENTRY_DSN: settings.SENTRY_DSN, SENTRY_TRACES_SAMPLE_RATE: "1" })).then(
        () => undefined,
      ),
    );
    expect(options.maxBreadcrumbs).toBe(100);
    expect(options.transportOptions).toMatchObject({ bufferSize: 64 });
    // v11: every data collection key set (its defaults collect everything), transactions not span streams.
    expect(options.dataCollection).toEqual(SERVER_DATA_COLLECTION);
    expect(Object.keys(options.dataCollection as object).sort()).toEqual(
      Object.keys(
        new NodeClient({
          integrations: [],
          stackParser: () => [],
          transport: (transport) => createTransport(transport, () => Promise.resolve({})),
        }).getDataCollectionOptions(),
      ).sort(),
    );
    expect(options.traceLifecycle).toBe("static");
    expect(options).not.toHaveProperty("sendDefaultPii");
    // The app's transport (each send bounded in time, so a black-holed ingest cannot wedge the
    // buffer: sentry-transport.server.test.ts), reusing connections.
    expect(options.transport).toBeTypeOf("function");
    expect(options.transportOptions).toMatchObject({ keepAlive: true });
    // The SDK's own client keeps them: the transport gets the buffer size.
    let transportOptions: object | undefined;
    const client = new NodeClient({
      ...options,
      integrations: [],
      stackParser: () => [],
      transport: (transport) => {
        transportOptions = transport;
        return createTransport(transport, () => Promise.resolve({}));
      },
    });
    expect(client.getOptions().maxBreadcrumbs).toBe(100);
    expect(transportOptions).toMatchObject({ bufferSize: 64 });
  });
});
