/**
 * The error-report tunnel (SENTRY_TUNNEL_ROUTE): the browser reports through
 * the app's own host, the server forwards only envelopes for the configured
 * project, and every bad request gets a short 4xx without reaching Sentry.
 */
import { gzipSync } from "node:zlib";
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "../../test-support/app-server";
import { blackHoleIngest, refusingIngest } from "../../test-support/faulty-ingest";
import { CLIENT_ERROR_HEADING, expect, test, waitForHydration } from "../support/spec-helpers";
import { startRecorder, type Recorder } from "../../test-support/sentry-recorder";

test.use({ serverStarts: 3 }); // the tunnel's app, and two with the ingest down

const ROUTE = "/monitoring";

function envelope(dsn: string, message = "through the tunnel"): string {
  const header = JSON.stringify({ dsn, sent_at: new Date().toISOString() });
  const item = JSON.stringify({ message, level: "info" });
  return `${header}\n${JSON.stringify({ type: "event", length: Buffer.byteLength(item) })}\n${item}\n`;
}

let app: AppServer;
/**
 * This file's own ingest, not the worker's: an app that an earlier spec of the
 * same worker started keeps sending to the worker's recorder (a late
 * transaction, a client report), which "forwards nothing" would count.
 */
let recorder: Recorder;

test.beforeAll(async () => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  recorder = await startRecorder();
  app = await startApp({
    env: { SENTRY_DSN: recorder.dsn(), SENTRY_TRACES_SAMPLE_RATE: "1", SENTRY_TUNNEL_ROUTE: ROUTE },
  });
});

test.afterAll(async () => {
  await app?.stop();
  await recorder?.close();
});

test.beforeEach(() => recorder.clear());

const post = (body: string | Buffer, headers: Record<string, string> = {}) =>
  fetch(app.url + ROUTE, {
    method: "POST",
    body: new Uint8Array(Buffer.from(body)),
    headers: { "Content-Type": "text/plain", ...headers },
  });

async function nothingRecorded(recorder: Recorder) {
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(recorder.requestCount()).toBe(0);
}

test.describe("requests to the tunnel", () => {
  test("forwards an envelope for the configured project, with the client address", async () => {
    const response = await post(envelope(recorder.dsn(), "tunnel-forward-check"));
    expect(response.status).toBe(200);
    const item = await recorder.waitForItem((i) => i.payload?.message === "tunnel-forward-check");
    expect(item.type).toBe("event");
    const forwarded = recorder.envelopes.find((e) => e.items.includes(item))!;
    expect(forwarded.headers["x-forwarded-for"]).toBe("127.0.0.1");
  });

  test("refuses an envelope for another project with 403 and forwards nothing", async () => {
    for (const dsn of [
      recorder.dsn("2"),
      recorder.dsn("1", "otherkey"),
      `http://public@evil.example:${recorder.port}/1`,
    ]) {
      expect((await post(envelope(dsn))).status, dsn).toBe(403);
    }
    await nothingRecorded(recorder);
  });

  test("refuses malformed envelopes with 400", async () => {
    for (const body of [
      "",
      "\n",
      "not json\n{}",
      '{"no":"dsn"}\n{"type":"event"}\n{}',
      '{"dsn":"nope"}\n',
      "\u0000\u0001binary",
    ]) {
      expect((await post(body)).status, JSON.stringify(body)).toBe(400);
    }
    await nothingRecorded(recorder);
  });

  test("refuses other methods with 405", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const response = await fetch(app.url + ROUTE, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
  });

  test("refuses bodies over 1 MiB with 413, compressed or not", async () => {
    const big = envelope(recorder.dsn()) + "x".repeat(1024 * 1024);
    expect((await post(big)).status).toBe(413);
    const bomb = gzipSync(Buffer.from(envelope(recorder.dsn()) + " ".repeat(8 * 1024 * 1024)));
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect((await post(bomb, { "Content-Encoding": "gzip" })).status).toBe(413);
    await nothingRecorded(recorder);
    // The server is fine afterwards.
    expect((await fetch(app.url + "/healthz")).status).toBe(200);
  });

  test("accepts a gzip-compressed envelope", async () => {
    const response = await post(gzipSync(Buffer.from(envelope(recorder.dsn(), "gzipped-envelope"))), {
      "Content-Encoding": "gzip",
    });
    expect(response.status).toBe(200);
    await recorder.waitForItem((i) => i.payload?.message === "gzipped-envelope");
  });

  test("passes the ingest's status and rate-limit headers back unchanged", async () => {
    recorder.respondNext(1, 429, { "Retry-After": "42", "X-Sentry-Rate-Limits": "42:error:organization" });
    const response = await post(envelope(recorder.dsn()));
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("42");
    expect(response.headers.get("x-sentry-rate-limits")).toBe("42:error:organization");
  });

  test("its own requests are not traced", async ({ request }) => {
    await post(envelope(recorder.dsn(), "not-traced-check"));
    await request.get(app.url + "/fixtures/items/1");
    await recorder.waitForItem(
      (i) => i.type === "transaction" && i.payload.transaction === "GET /fixtures/items/:id",
    );
    const tunnelTransactions = recorder
      .items("transaction")
      .filter((i) => JSON.stringify(i.payload).includes(ROUTE));
    expect(tunnelTransactions).toEqual([]);
    expect(app.logLines().filter((line) => String(line.url ?? "").startsWith(ROUTE))).toEqual([]);
  });
});

test.describe("when Sentry cannot be reached", () => {
  test("refused connection: 502, and the app keeps serving pages", async () => {
    const ingest = await refusingIngest();
    const down = await startApp({ env: { SENTRY_DSN: ingest.dsn, SENTRY_TUNNEL_ROUTE: ROUTE } });
    try {
      const response = await fetch(down.url + ROUTE, { method: "POST", body: envelope(ingest.dsn) });
      expect(response.status).toBe(502);
      expect((await fetch(down.url + "/")).status).toBe(200);
    } finally {
      await down.stop();
    }
  });

  test("no answer: 504 after the time-out, and the app keeps serving pages", async () => {
    const ingest = await blackHoleIngest();
    const down = await startApp({ env: { SENTRY_DSN: ingest.dsn, SENTRY_TUNNEL_ROUTE: ROUTE } });
    try {
      const started = Date.now();
      const pending = fetch(down.url + ROUTE, { method: "POST", body: envelope(ingest.dsn) });
      expect((await fetch(down.url + "/")).status).toBe(200);
      const response = await pending;
      expect(response.status).toBe(504);
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    } finally {
      await down.stop();
      await ingest.close();
    }
  });
});

test.describe("in the browser", () => {
  test("errors and transactions go through the tunnel, never to the ingest's origin", async ({ page }) => {
    const direct: string[] = [];
    const tunnelled: number[] = [];
    page.on("request", (request) => {
      if (request.url().startsWith(recorder.origin)) direct.push(request.url());
    });
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === ROUTE) tunnelled.push(response.status());
    });
    const firstTunnelResponse = page.waitForResponse((r) => new URL(r.url()).pathname === ROUTE);
    await page.goto(app.url + "/fixtures/client-render-error");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(CLIENT_ERROR_HEADING);
    await recorder.waitForItem(
      (i) => i.type === "event" && /client render failed/.test(JSON.stringify(i.payload.exception)),
    );
    await recorder.waitForItem(
      (i) => i.type === "transaction" && i.payload.contexts?.trace?.op === "pageload",
    );
    // The recorder can have the envelope before the browser has the tunnel's answer.
    expect((await firstTunnelResponse).status()).toBe(200);
    expect(direct).toEqual([]);
    expect(tunnelled.length).toBeGreaterThan(0);
    expect(tunnelled.every((status) => status === 200)).toBe(true);
    const csp = (await page.request.get(app.url + "/")).headers()["content-security-policy"];
    expect(csp).toContain("connect-src 'self';");
  });

  test("a 429 from the ingest reaches the browser with its Retry-After", async ({ page }) => {
    await page.goto(app.url + "/fixtures/event-error");
    await waitForHydration(page);
    // Let the page load's own envelope go first, so the scripted answer meets the error's.
    await recorder.waitForItem(
      (i) => i.type === "transaction" && i.payload.contexts?.trace?.op === "pageload",
    );
    recorder.respondNext(1, 429, { "Retry-After": "60" });
    const [response] = await Promise.all([
      page.waitForResponse(
        (r) =>
          new URL(r.url()).pathname === ROUTE &&
          (r.request().postData() ?? "").includes("uncaught handler error"),
      ),
      page.getByRole("button", { name: "Fail uncaught" }).click(),
    ]);
    expect(response.status()).toBe(429);
    expect(response.headers()["retry-after"]).toBe("60");
  });
});

test("without SENTRY_TUNNEL_ROUTE the path is a plain 404", async ({ app: defaultApp }) => {
  const response = await fetch(defaultApp.url + ROUTE, { method: "POST", body: "x" });
  expect(response.status).toBe(404);
});
