import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import * as core from "@sentry/core";
import * as node from "@sentry/node";
import { afterEach, describe, expect, it } from "vitest";
import { SENTRY_LIMITS } from "./sentry-options";
import { ingestTransport } from "./sentry-transport.server";

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: Server | undefined;

/** An ingest on 127.0.0.1 that records each POST and answers with `headers`. */
async function ingest(headers: Record<string, string> = {}) {
  const received: Received[] = [];
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200, headers).end("{}");
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/1/envelope/` };
}

afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

const transportFor = (url: string, timeoutMs?: number) =>
  ingestTransport({ core, node }, { timeoutMs })({ url, recordDroppedEvent: () => {}, keepAlive: true });

const envelope = (message: string) =>
  core.createEnvelope<core.EventEnvelope>({ event_id: "a".repeat(32), sent_at: new Date(0).toISOString() }, [
    [{ type: "event" }, { event_id: "a".repeat(32), message }],
  ]);

describe("the server's Sentry transport", () => {
  it("sends each envelope in one body with its length, and reads the rate limits", async () => {
    const { received, url } = await ingest({ "x-sentry-rate-limits": "60:transaction:key" });
    const response = await transportFor(url).send(envelope("hello"));
    expect(response).toMatchObject({
      statusCode: 200,
      headers: { "x-sentry-rate-limits": "60:transaction:key", "retry-after": null },
    });
    const [sent] = received;
    expect(sent!.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(sent!.headers["content-length"])).toBe(sent!.body.length);
    expect(sent!.body.toString()).toBe(core.serializeEnvelope(envelope("hello")));
  });

  it("gzips an envelope above 32 KB, as the SDK's transport does", async () => {
    const { received, url } = await ingest();
    await transportFor(url).send(envelope("x".repeat(40_000)));
    const [sent] = received;
    expect(sent!.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(sent!.body).toString()).toBe(core.serializeEnvelope(envelope("x".repeat(40_000))));
  });

  it("abandons a send the ingest never answers", async () => {
    server = createServer(() => {}); // accepts, reads nothing, never answers
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/1/envelope/`;
    await expect(transportFor(url, 200).send(envelope("black hole"))).rejects.toThrow("timed out");
    server.closeAllConnections();
  });

  it("keeps at most the buffer's sends waiting for an ingest that never answers, and drops the rest", async () => {
    server = createServer(() => {}); // accepts, reads nothing, never answers
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/1/envelope/`;
    const dropped: string[] = [];
    const transport = ingestTransport(
      { core, node },
      { timeoutMs: 500 },
    )({
      url,
      bufferSize: SENTRY_LIMITS.bufferSize,
      recordDroppedEvent: (reason) => void dropped.push(reason),
      keepAlive: true,
    });
    const sends = Array.from({ length: 200 }, () => transport.send(envelope("held")));
    await Promise.allSettled(sends);
    expect(dropped.filter((reason) => reason === "queue_overflow")).toHaveLength(
      200 - SENTRY_LIMITS.bufferSize,
    );
    server.closeAllConnections();
  });

  it("skips sends for a while after the ingest could not be reached", async () => {
    const { url } = await ingest();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const transport = transportFor(url);
    await expect(transport.send(envelope("refused"))).rejects.toThrow();
    // Paused: answered at once, without a connection attempt.
    await expect(transport.send(envelope("skipped"))).resolves.toEqual({});
  });
});
