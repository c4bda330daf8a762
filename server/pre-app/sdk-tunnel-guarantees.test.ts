/**
 * Why `tunnel.ts` is ours and not the SDK's managed tunnel (docs/decisions/0082): the SDK's
 * handler (`serveTunnelIntegration({ intercept: false })` + `handleTunnelRequestIfMatched`),
 * served as the app would serve it, against the real ingest protocol (the recorder), and each
 * guarantee e2e/sentry/tunnel.spec.ts and e2e/operations/trust-proxy.spec.ts pin on ours. The ones it keeps pass
 * as they are; the ones it breaks assert what the SDK answers instead, so a change in the SDK
 * fails here and says to look again.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { createTransport } from "@sentry/core";
import * as Sentry from "@sentry/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adviseOnFailure } from "../../test-support/guard-advice";
import { refusingIngest } from "../../test-support/faulty-ingest";
import { startRecorder, type Recorder } from "../../test-support/sentry-recorder";

adviseOnFailure(
  "@sentry/node's managed tunnel changed: read its new code (@sentry/core utils/tunnelForward.js) and " +
    "docs/decisions/0082; where it now keeps a guarantee, it may replace that part of server/pre-app/tunnel.ts.",
);

const ROUTE = "/monitoring";
let recorder: Recorder;
let server: http.Server;
let url: string;

const envelope = (dsn: string, message = "through the SDK's tunnel") => {
  const item = JSON.stringify({ message, level: "info" });
  return `${JSON.stringify({ dsn })}\n${JSON.stringify({ type: "event", length: Buffer.byteLength(item) })}\n${item}\n`;
};

const post = (body: string | Buffer, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", body: new Uint8Array(Buffer.from(body)), headers });

beforeAll(async () => {
  recorder = await startRecorder();
  Sentry.init({
    dsn: recorder.dsn(),
    integrations: [Sentry.serveTunnelIntegration({ path: ROUTE, intercept: false })],
    transport: (options) => createTransport(options, async () => ({})),
  });
  server = http.createServer((request, response) => {
    // What it does not match goes on to the app: here a 404.
    if (Sentry.handleTunnelRequestIfMatched(request, response) === undefined) {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${ROUTE}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await Sentry.close(0);
  await recorder.close();
});
beforeEach(() => recorder.clear());

describe("guarantees the SDK's tunnel keeps", () => {
  it("forwards the configured project's envelope", async () => {
    expect((await post(envelope(recorder.dsn(), "sdk-forwarded"))).status).toBe(200);
    await recorder.waitForItem((item) => item.payload?.message === "sdk-forwarded");
  });

  it("refuses another project with 403 (never an open relay)", async () => {
    for (const dsn of [recorder.dsn("2"), recorder.dsn("1", "otherkey"), "http://public@evil.example/1"])
      expect((await post(envelope(dsn))).status, dsn).toBe(403);
    expect(recorder.requestCount()).toBe(0);
  });

  it("refuses a malformed envelope with 400", async () => {
    for (const body of ["\n", "not json\n{}", '{"no":"dsn"}\n{}', "\u0000\u0001binary"])
      expect((await post(body)).status, JSON.stringify(body)).toBe(400);
  });

  it("passes the ingest's status and rate-limit headers back", async () => {
    recorder.respondNext(1, 429, { "Retry-After": "42", "X-Sentry-Rate-Limits": "42:error:organization" });
    const response = await post(envelope(recorder.dsn()));
    expect([response.status, response.headers.get("retry-after")]).toEqual([429, "42"]);
    expect(response.headers.get("x-sentry-rate-limits")).toBe("42:error:organization");
  });
});

describe("guarantees the SDK's tunnel breaks (ours keeps each)", () => {
  it("405 for other methods: it does not match them, so they reach the app", async () => {
    for (const method of ["GET", "PUT"]) expect((await fetch(url, { method })).status, method).toBe(404);
  });

  it("413 over 1 MiB: it streams any size on to the ingest", async () => {
    const big = envelope(recorder.dsn(), "sdk-oversized " + "x".repeat(2 * 1024 * 1024));
    expect((await post(big)).status).toBe(200);
    const item = await recorder.waitForItem((i) => String(i.payload?.message).startsWith("sdk-oversized"));
    expect(String(item.payload.message).length).toBeGreaterThan(2 * 1024 * 1024);
  });

  it("a gzip-compressed envelope: it parses the compressed bytes and answers 400", async () => {
    const zipped = gzipSync(Buffer.from(envelope(recorder.dsn())));
    expect((await post(zipped, { "Content-Encoding": "gzip" })).status).toBe(400);
  });

  it("the client address as TRUST_PROXY allows: it passes on whatever X-Forwarded-For the client made up", async () => {
    await post(envelope(recorder.dsn(), "sdk-spoofed"), { "X-Forwarded-For": "6.6.6.6" });
    const item = await recorder.waitForItem((i) => i.payload?.message === "sdk-spoofed");
    const forwarded = recorder.envelopes.find((e) => e.items.includes(item))!;
    expect(forwarded.headers["x-sentry-forwarded-for"]).toBe("6.6.6.6");
    expect(forwarded.headers["x-forwarded-for"]).toBeUndefined();
  });

  it("502 when the ingest is unreachable: it answers 500", async () => {
    const ingest = await refusingIngest();
    const body = envelope(ingest.dsn);
    const down = Sentry.handleTunnelRequestIfMatched(
      new Request(url, { method: "POST", body, headers: { "Content-Length": String(body.length) } }),
      { path: ROUTE, allowedDsns: [ingest.dsn] },
    );
    expect((await down!).status).toBe(500);
  });
});
