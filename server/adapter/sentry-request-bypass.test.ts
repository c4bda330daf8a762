/**
 * The assumption of sentry-request-bypass.ts, against the real SDK and a real
 * server: a request the subscriber marks gets none of the SDK's per-request
 * work (no isolation scope of its own, no span); one it lets through gets
 * both; and without the subscriber the SDK handles every request, so the
 * mark is what makes the difference.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import { Socket, type AddressInfo } from "node:net";
import { createTransport } from "@sentry/core";
import * as Sentry from "@sentry/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { rawHttp } from "../../test-support/raw-http";
import { bypassSentryUnlessTraced, markUnlessTraced, SENTRY_HANDLED } from "./sentry-request-bypass";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";

adviseOnFailure(ADAPTER_ADVICE("sentry-request-bypass.ts"));

let server: http.Server;
let url: string;
const processScope = () => Sentry.getIsolationScope();

beforeAll(async () => {
  Sentry.init({
    dsn: "http://public@127.0.0.1:9/1",
    tracesSampleRate: 1,
    transport: (options) => createTransport(options, async () => ({})),
  });
  const outside = processScope();
  server = http.createServer((_request, response) => {
    const seen = { ownScope: processScope() !== outside, span: Sentry.getActiveSpan() !== undefined };
    response.end(JSON.stringify(seen));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await Sentry.close(0);
});

const seen = async (traced: "yes" | "no") =>
  (await (await fetch(url, { headers: { "x-traced": traced } })).json()) as {
    ownScope: boolean;
    span: boolean;
  };

/** One GET written on a bare socket (the SDK instruments `fetch` on the client's side too). */
const rawGet = (traced: "yes" | "no") =>
  rawHttp(
    Number(new URL(url).port),
    `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nx-traced: ${traced}\r\nConnection: close\r\n\r\n`,
  );

describe("requests the SDK's HTTP instrumentation leaves alone", () => {
  it("a marked request gets no scope or span of the SDK's; an unmarked one gets both", async () => {
    const stop = bypassSentryUnlessTraced((request) => request.headers["x-traced"] === "yes");
    try {
      expect(await seen("no")).toEqual({ ownScope: false, span: false });
      expect(await seen("yes")).toEqual({ ownScope: true, span: true });
    } finally {
      stop();
    }
  });

  // A request carries the SDK's async context only when it is traced.
  // Node's AsyncLocalStorage is counted, not the SDK: the SDK's context strategy
  // enters its store with `run` for each scope it forks.
  it("a marked request enters no async context of the SDK's; an unmarked one does", async () => {
    const runs = vi.spyOn(AsyncLocalStorage.prototype, "run");
    const stop = bypassSentryUnlessTraced((request) => request.headers["x-traced"] === "yes");
    const runsDuring = async (traced: "yes" | "no") => {
      runs.mockClear();
      await rawGet(traced);
      return runs.mock.calls.length;
    };
    try {
      expect(await runsDuring("no")).toBe(0);
      expect(await runsDuring("yes")).toBeGreaterThan(0);
    } finally {
      stop();
      runs.mockRestore();
    }
  });

  it("without the mark, the SDK handles every request", async () => {
    expect(await seen("no")).toEqual({ ownScope: true, span: true });
  });
});

describe("a decision that throws", () => {
  it("leaves the request to the SDK instead of throwing, which would end the process", () => {
    const request = new http.IncomingMessage(new Socket());
    const cannotDecide = () => {
      throw new TypeError("Invalid URL");
    };
    expect(() => markUnlessTraced(cannotDecide, request)).not.toThrow();
    expect((request as unknown as Record<symbol, unknown>)[SENTRY_HANDLED]).toBeUndefined();
    markUnlessTraced(() => false, request);
    expect((request as unknown as Record<symbol, unknown>)[SENTRY_HANDLED]).toBe(true);
  });
});
