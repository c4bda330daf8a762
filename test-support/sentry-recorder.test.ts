/**
 * Unit tests for the Sentry recorder, over real HTTP on 127.0.0.1 (global fetch, no mocks).
 * The parser and the summaries have their own, in sentry-recorder/.
 *
 * Time-outs: every test here does real I/O on a machine that may be busy, so none relies on
 * Vitest's 5 s default, which two of them passed in .ci/run's fresh clone (bench/README.md, "How
 * long the test suite takes"). The limits below are at least 6x that: a hang still fails, a slow
 * day not.
 */
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import * as zlib from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startRecorder, summarizeItem, type EnvelopeItem, type Recorder } from "./sentry-recorder.js";
import {
  ENVELOPE_HEADER,
  envelope,
  errorEvent,
  eventEnvelope,
  transaction,
} from "./sentry-recorder/test-envelopes";

const gzip = promisify(zlib.gzip);
const deflate = promisify(zlib.deflate);
const deflateRaw = promisify(zlib.deflateRaw);
const brotli = promisify(zlib.brotliCompress);

/** fetch's BodyInit typing rejects Node Buffers (ArrayBufferLike); hand it a plain Uint8Array copy. */
const bodyInit = (body: Buffer | string): Uint8Array<ArrayBuffer> | string =>
  typeof body === "string" ? body : new Uint8Array(body);

// --- server ---------------------------------------------------------------------

/** For the tests that move 20 MiB bodies through the recorder (see the header). */
const BIG_BODY_TIMEOUT_MS = 30_000;
/** How long a test waits for an envelope it has just sent: the time-out of a hang, not a pace. */
const ARRIVAL_TIMEOUT_MS = 10_000;

describe("recorder server", { timeout: 20_000 }, () => {
  let recorder: Recorder;
  const logLines: string[] = [];

  beforeAll(async () => {
    recorder = await startRecorder({ log: (line) => logLines.push(line) });
  });
  afterEach(() => {
    recorder.clear();
    logLines.length = 0;
  });
  afterAll(async () => {
    await recorder.close();
  });

  const url = (path: string): string => `${recorder.origin}${path}`;
  const post = (
    path: string,
    body: Buffer | string,
    headers: Record<string, string> = {},
  ): Promise<Response> => fetch(url(path), { method: "POST", body: bodyInit(body), headers });

  it("exposes port, origin and DSNs", () => {
    expect(recorder.port).toBeGreaterThan(0);
    expect(recorder.origin).toBe(`http://127.0.0.1:${recorder.port}`);
    expect(recorder.dsn()).toBe(`http://public@127.0.0.1:${recorder.port}/1`);
    expect(recorder.dsn("42", "abc")).toBe(`http://abc@127.0.0.1:${recorder.port}/42`);
  });

  it("records a plain envelope and answers 200 {} with CORS headers", async () => {
    const body = eventEnvelope();
    const res = await post("/api/7/envelope/?sentry_key=public&sentry_version=7", body, {
      "Content-Type": "application/x-sentry-envelope",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toBe("x-sentry-rate-limits, retry-after");
    expect(await res.json()).toEqual({});

    expect(recorder.envelopes).toHaveLength(1);
    const env = recorder.envelopes[0];
    expect(env?.project).toBe("7");
    expect(env?.path).toBe("/api/7/envelope/?sentry_key=public&sentry_version=7");
    expect(env?.headers["content-type"]).toBe("application/x-sentry-envelope");
    expect(env?.header).toEqual(ENVELOPE_HEADER);
    expect(env?.rawBody.equals(body)).toBe(true);
    expect(env?.answeredStatus).toBe(200);
    expect(env?.receivedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(recorder.items("event")[0]?.payload).toEqual(errorEvent);
    expect(logLines).toEqual(["[7] event [error] TypeError: boom digest=123456"]);
  });

  it("accepts the path without trailing slash", async () => {
    const res = await post("/api/1/envelope?sentry_key=public", eventEnvelope());
    expect(res.status).toBe(200);
    expect(recorder.envelopes).toHaveLength(1);
  });

  it("flattens items across envelopes in arrival order, optionally by type", async () => {
    await post("/api/1/envelope/?sentry_key=k", eventEnvelope());
    await post(
      "/api/1/envelope/?sentry_key=k",
      envelope({}, [{ type: "transaction" }, transaction], [{ type: "session" }, { status: "ok" }]),
    );
    expect(recorder.items().map((i) => i.type)).toEqual(["event", "transaction", "session"]);
    expect(recorder.items("transaction")).toHaveLength(1);
    expect(recorder.items("feedback")).toEqual([]);
  });

  describe("Content-Encoding", () => {
    it.each([
      ["gzip", gzip],
      ["deflate", deflate],
      ["deflate", deflateRaw], // raw deflate, as sent by some clients
      ["br", brotli],
    ])("decompresses %s bodies", async (encoding, compress) => {
      const body = eventEnvelope();
      const res = await post("/api/1/envelope/?sentry_key=public", await compress(body), {
        "Content-Encoding": encoding,
      });
      expect(res.status).toBe(200);
      expect(recorder.envelopes[0]?.rawBody.equals(body)).toBe(true);
      expect(recorder.items("event")[0]?.payload).toEqual(errorEvent);
    });

    it("answers 400 to a body that does not decompress", async () => {
      const res = await post("/api/1/envelope/?sentry_key=public", "not gzip", {
        "Content-Encoding": "gzip",
      });
      expect(res.status).toBe(400);
      expect(recorder.envelopes).toHaveLength(0);
    });

    it("answers 415 to an unknown encoding", async () => {
      const res = await post("/api/1/envelope/?sentry_key=public", eventEnvelope(), {
        "Content-Encoding": "zstd",
      });
      expect(res.status).toBe(415);
    });
  });

  describe("auth", () => {
    it("accepts sentry_key in the X-Sentry-Auth header", async () => {
      const res = await post("/api/1/envelope/", eventEnvelope(), {
        "X-Sentry-Auth": "Sentry sentry_version=7, sentry_client=test/1.0, sentry_key=public",
      });
      expect(res.status).toBe(200);
      expect(recorder.envelopes).toHaveLength(1);
    });

    it("accepts the key from the envelope header dsn, like Relay does for tunnels", async () => {
      const body = envelope({ dsn: recorder.dsn() }, [{ type: "event" }, errorEvent]);
      expect((await post("/api/1/envelope/", body)).status).toBe(200);
    });

    it("refuses a request without key with 401, records nothing but counts it", async () => {
      const res = await post("/api/1/envelope/", eventEnvelope());
      expect(res.status).toBe(401);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(((await res.json()) as { detail: string }).detail).toMatch(/sentry_key/);
      expect(recorder.envelopes).toHaveLength(0);
      expect(recorder.requestCount()).toBe(1);
    });
  });

  describe("routing", () => {
    it.each(["/", "/api/1/store/", "/api/envelope/", "/api/1/envelope/extra", "/x/api/1/envelope/"])(
      "answers 404 on %s",
      async (path) => {
        expect((await post(`${path}?sentry_key=public`, eventEnvelope())).status).toBe(404);
        expect(recorder.requestCount()).toBe(0);
      },
    );

    it.each(["GET", "PUT", "DELETE"])("answers 405 to %s on the envelope path", async (method) => {
      const res = await fetch(url("/api/1/envelope/?sentry_key=public"), { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    });

    it("answers the CORS preflight on OPTIONS", async () => {
      const res = await fetch(url("/api/1/envelope/?sentry_key=public"), {
        method: "OPTIONS",
        headers: {
          Origin: "http://localhost:3000",
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "content-type, x-custom",
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-methods")).toContain("POST");
      const allowed = res.headers.get("access-control-allow-headers")?.split(/,\s*/) ?? [];
      expect(allowed).toEqual(
        expect.arrayContaining(["content-type", "x-sentry-auth", "sentry-trace", "baggage", "x-custom"]),
      );
      expect(recorder.requestCount()).toBe(0);
    });
  });

  describe("malformed bodies", () => {
    it.each([
      ["no header line", ""],
      ["bad header JSON", '{"event_id":\n{"type":"event"}\n{}'],
      ["bad item header", '{}\n{"type":\n{}'],
      ["truncated item", '{}\n{"type":"attachment","length":100}\nabc'],
    ])("answers 400 to %s and records nothing", async (_name, body) => {
      const res = await post("/api/1/envelope/?sentry_key=public", body);
      expect(res.status).toBe(400);
      expect(recorder.envelopes).toHaveLength(0);
      expect(recorder.requestCount()).toBe(1);
      expect(logLines[0]).toMatch(/^\[1\] refused 400: /);
    });

    it("answers 413 to bodies over 20 MiB", { timeout: BIG_BODY_TIMEOUT_MS }, async () => {
      // Built once, as what fetch sends: no Buffer and no copy of it (each is 20 MiB more to fill).
      const big = new Uint8Array(20 * 1024 * 1024 + 1).fill(0x61);
      const res = await fetch(url("/api/1/envelope/?sentry_key=public"), { method: "POST", body: big });
      expect(res.status).toBe(413);
      expect(recorder.envelopes).toHaveLength(0);
    });

    it(
      "answers 413 when a small compressed body inflates past 20 MiB",
      { timeout: BIG_BODY_TIMEOUT_MS },
      async () => {
        // The fastest level: what is tested is the inflated size, not how small the bomb is.
        const bomb = await gzip(Buffer.alloc(21 * 1024 * 1024, 0x20), { level: zlib.constants.Z_BEST_SPEED });
        const res = await post("/api/1/envelope/?sentry_key=public", bomb, {
          "Content-Encoding": "gzip",
        });
        expect(res.status).toBe(413);
      },
    );
  });

  it("survives a client that disconnects mid-body", async () => {
    const socket = connect(recorder.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("POST /api/1/envelope/?sentry_key=k HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{}\n");
    await sleep(20);
    socket.destroy();
    for (const until = Date.now() + ARRIVAL_TIMEOUT_MS; logLines.length === 0 && Date.now() < until;)
      await sleep(10);
    expect(logLines[0]).toMatch(/refused 400: .*aborted/);
    expect(recorder.envelopes).toHaveLength(0);
    expect((await post("/api/1/envelope/?sentry_key=k", eventEnvelope())).status).toBe(200);
  });

  describe("respondNext", () => {
    it("answers the next n envelopes with the scripted status and headers, still recording them", async () => {
      recorder.respondNext(2, 429, {
        "Retry-After": "60",
        "X-Sentry-Rate-Limits": "60:error;transaction:organization",
      });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await post("/api/1/envelope/?sentry_key=public", eventEnvelope());
        statuses.push(res.status);
        if (i === 0) {
          expect(res.headers.get("retry-after")).toBe("60");
          expect(res.headers.get("x-sentry-rate-limits")).toBe("60:error;transaction:organization");
          expect(res.headers.get("access-control-expose-headers")).toContain("retry-after");
        }
      }
      expect(statuses).toEqual([429, 429, 200]);
      expect(recorder.envelopes.map((e) => e.answeredStatus)).toEqual([429, 429, 200]);
      expect(recorder.requestCount()).toBe(3);
      expect(logLines[0]).toBe("[1] event [error] TypeError: boom digest=123456 (answered 429)");
    });

    it("queues successive scripts in order and skips refused requests", async () => {
      recorder.respondNext(1, 503);
      recorder.respondNext(1, 500);
      expect((await post("/api/1/envelope/", eventEnvelope())).status).toBe(401); // does not consume
      expect((await post("/api/1/envelope/?sentry_key=k", eventEnvelope())).status).toBe(503);
      expect((await post("/api/1/envelope/?sentry_key=k", eventEnvelope())).status).toBe(500);
      recorder.respondNext(1, 202, { "X-Sentry-Rate-Limits": "" });
      const accepted = await post("/api/1/envelope/?sentry_key=k", eventEnvelope());
      expect([accepted.status, await accepted.json()]).toEqual([202, {}]);
      expect((await post("/api/1/envelope/?sentry_key=k", eventEnvelope())).status).toBe(200);
    });

    it("rejects nonsense arguments", () => {
      expect(() => recorder.respondNext(-1, 429)).toThrow(RangeError);
      expect(() => recorder.respondNext(1, 42)).toThrow(RangeError);
    });
  });

  describe("security endpoint", () => {
    it("records CSP reports as a csp_report item", async () => {
      const report = {
        "csp-report": {
          "document-uri": "http://localhost/",
          "violated-directive": "script-src",
          "blocked-uri": "inline",
        },
      };
      recorder.respondNext(1, 429);
      const res = await post("/api/1/security/?sentry_key=public", JSON.stringify(report), {
        "Content-Type": "application/csp-report",
      });
      expect(res.status).toBe(200);
      const item = await recorder.waitForItem((i) => i.type === "csp_report", { timeout: 1000 });
      expect(item.payload).toEqual(report);
      expect(summarizeItem(item)).toBe("csp_report script-src blocked=inline");
      // CSP reports don't count as envelope requests and don't consume scripted answers.
      expect(recorder.requestCount()).toBe(0);
      expect((await post("/api/1/envelope/?sentry_key=k", eventEnvelope())).status).toBe(429);
    });

    it("answers 400 to a report that is not JSON", async () => {
      expect((await post("/api/1/security/?sentry_key=public", "nope")).status).toBe(400);
    });
  });

  describe("waiting", () => {
    const isTransaction = (i: EnvelopeItem): boolean => i.type === "transaction";

    it("resolves with an already recorded item", async () => {
      await post("/api/1/envelope/?sentry_key=k", envelope({}, [{ type: "transaction" }, transaction]));
      const item = await recorder.waitForItem(isTransaction, { timeout: 100 });
      expect(item.payload.transaction).toBe("GET /products/:id");
    });

    it("resolves with a future item and passes the envelope to the predicate", async () => {
      const waiting = recorder.waitForItem((i, env) => i.type === "event" && env.project === "9", {
        timeout: ARRIVAL_TIMEOUT_MS,
      });
      await post("/api/1/envelope/?sentry_key=k", eventEnvelope());
      await post("/api/9/envelope/?sentry_key=k", eventEnvelope());
      const item = await waiting;
      expect(recorder.envelopes.find((e) => e.items.includes(item))?.project).toBe("9");
    });

    it("treats a throwing predicate as no match", async () => {
      await post("/api/1/envelope/?sentry_key=k", envelope({}, [{ type: "session" }, { status: "ok" }]));
      const waiting = recorder.waitForItem((i) => i.payload.exception.values[0].type === "Error", {
        timeout: ARRIVAL_TIMEOUT_MS,
      });
      await post("/api/1/envelope/?sentry_key=k", eventEnvelope());
      expect((await waiting).type).toBe("event");
    });

    it("waitForItems collects past and future matches up to count", async () => {
      await post("/api/1/envelope/?sentry_key=k", envelope({}, [{ type: "transaction" }, transaction]));
      const waiting = recorder.waitForItems(isTransaction, { count: 2, timeout: ARRIVAL_TIMEOUT_MS });
      await post("/api/1/envelope/?sentry_key=k", eventEnvelope());
      await post(
        "/api/1/envelope/?sentry_key=k",
        envelope({}, [{ type: "transaction" }, transaction], [{ type: "transaction" }, transaction]),
      );
      const items = await waiting;
      expect(items).toHaveLength(2);
      expect(items.every(isTransaction)).toBe(true);
    });

    it("rejects on timeout with a message listing what was seen", async () => {
      await post("/api/1/envelope/?sentry_key=k", eventEnvelope());
      await expect(recorder.waitForItem(isTransaction, { timeout: 50 })).rejects.toThrow(
        "recorder: no item matched within 50ms (seen: event [error] TypeError: boom digest=123456)",
      );
      await expect(recorder.waitForItems(isTransaction, { count: 2, timeout: 20 })).rejects.toThrow(
        /^recorder: only 0 of 2 items matched within 20ms \(seen: event/,
      );
    });

    it('says "nothing" when nothing arrived, and reports predicate errors', async () => {
      await expect(recorder.waitForItem(() => false, { timeout: 10 })).rejects.toThrow(
        "recorder: no item matched within 10ms (seen: nothing)",
      );
      await post("/api/1/envelope/?sentry_key=k", envelope({}, [{ type: "session" }, { status: "ok" }]));
      await expect(
        recorder.waitForItem((i) => i.payload.exception.values.length > 0, { timeout: 10 }),
      ).rejects.toThrow(
        /\(seen: session status=ok\); last predicate error: Cannot read properties of undefined/,
      );
    });
  });

  it("clear() forgets envelopes, the request count and scripted answers", async () => {
    recorder.respondNext(5, 429);
    await post("/api/1/envelope/?sentry_key=k", eventEnvelope());
    expect(recorder.envelopes).toHaveLength(1);
    recorder.clear();
    expect(recorder.envelopes).toHaveLength(0);
    expect(recorder.items()).toHaveLength(0);
    expect(recorder.requestCount()).toBe(0);
    expect((await post("/api/1/envelope/?sentry_key=k", eventEnvelope())).status).toBe(200);
  });
});

describe("recorder lifecycle", { timeout: 20_000 }, () => {
  it("close() does not hang on keep-alive sockets and rejects pending waiters", async () => {
    const recorder = await startRecorder({ port: 0 });
    // fetch (undici) keeps the connection alive after this request.
    const res = await fetch(`${recorder.origin}/api/1/envelope/?sentry_key=k`, {
      method: "POST",
      body: bodyInit(eventEnvelope()),
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const pending = recorder.waitForItem(() => false, { timeout: 60_000 });
    const started = Date.now();
    await recorder.close();
    await recorder.close(); // idempotent
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(pending).rejects.toThrow("recorder: closed while waiting");
    await expect(recorder.waitForItem(() => false)).rejects.toThrow("recorder: closed");
    // Items recorded before close() can still be found.
    expect((await recorder.waitForItem((i) => i.type === "event")).type).toBe("event");
    await expect(
      fetch(`${recorder.origin}/api/1/envelope/?sentry_key=k`, { method: "POST", body: "{}" }),
    ).rejects.toThrow();
  });

  it("fails to start on a port that is already in use", async () => {
    const first = await startRecorder();
    try {
      await expect(startRecorder({ port: first.port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});

describe("with the real Sentry node transport", () => {
  let sdk: typeof import("@sentry/node");
  /** A flush ends when the sends do; the bound only turns a hang into a failure. */
  const FLUSH_MS = 15_000;
  // Imported lazily so the protocol tests above don't depend on the SDK, and in a hook of its own:
  // the first import of its ~700 modules is disk-bound in a fresh clone, and its time is not the
  // test's. The server's SDK, @sentry/node 11 (not @sentry/remix's server entry, which loads its own
  // @sentry/node 10 tree: twice the import time).
  beforeAll(async () => {
    sdk = await import("@sentry/node");
  }, 60_000);

  // Six sends, each flushed (see the header).
  it(
    "records SDK envelopes (plain, gzipped, with attachments) and the SDK honours a scripted 429",
    { timeout: 60_000 },
    async () => {
      const { NodeClient, makeNodeTransport, defaultStackParser } = sdk;
      const recorder = await startRecorder();
      const client = new NodeClient({
        dsn: recorder.dsn("5"),
        transport: makeNodeTransport,
        stackParser: defaultStackParser,
        integrations: [],
        sendClientReports: false,
      });
      try {
        client.captureException(new TypeError("boom from sdk"));
        client.captureMessage("x".repeat(40_000), "warning"); // > 32 KiB: the node transport gzips it
        client.captureEvent(
          { message: "with attachment" },
          { attachments: [{ filename: "a.bin", data: new Uint8Array([0, 10, 255, 10]) }] },
        );
        await client.flush(FLUSH_MS);

        expect(recorder.envelopes.map((e) => e.project)).toEqual(["5", "5", "5"]);
        expect(recorder.envelopes.some((e) => e.headers["content-encoding"] === "gzip")).toBe(true);
        const error = await recorder.waitForItem(
          (i) => i.type === "event" && summarizeItem(i).includes("boom"),
        );
        expect(summarizeItem(error)).toBe("event [error] TypeError: boom from sdk");
        const attachment = recorder.items("attachment")[0];
        expect(attachment?.raw.equals(Buffer.from([0, 10, 255, 10]))).toBe(true);

        recorder.respondNext(1, 429, { "Retry-After": "60" });
        client.captureException(new Error("answered 429"));
        await client.flush(FLUSH_MS);
        client.captureException(new Error("dropped by the SDK while rate limited"));
        await client.flush(FLUSH_MS);
        expect(recorder.requestCount()).toBe(4);
        expect(recorder.envelopes.at(-1)?.answeredStatus).toBe(429);
      } finally {
        await client.close(1000);
        await recorder.close();
      }
    },
  );
});
