/**
 * Sentry's ingest failing never holds a request and loses no log line: with the ingest refusing
 * connections, black-holed, slow, or answering 429 or 500, every page and every error is answered
 * (before its send ends, where the ingest never answers), every error keeps its digest line, and what waits for the ingest
 * stays within the send buffer. Counted, not timed: what a fault costs in CPU, latency and memory
 * is the benchmark's (`npm run bench -- goals`, bench/README.md). 127.0.0.1 only, bounded in count.
 */
import { startApp, type AppServer } from "../../test-support/app-server";
import { blackHoleIngest, refusingIngest, slowIngest } from "../../test-support/faulty-ingest";
import { digestInHtml } from "../../test-support/error-digest";
import { load } from "../../test-support/load";
import { startRecorder } from "../../test-support/sentry-recorder";
import { expect, test } from "../support/spec-helpers";

test.use({ serverStarts: 5 }); // one app for each fault
// A server's start and 120 requests: 10-15 s on a quiet machine, over 60 s with every core crowded.
test.setTimeout(180_000);

const PAGE = "/fixtures/items/1";
const ERROR_PAGE = "/fixtures/loader-error";
/** Each error and each page is a send (an event or a transaction): far more than the buffer holds. */
const ERRORS = 80;
const PAGES = 40;
/** The SDK's send buffer (SENTRY_LIMITS in app/monitoring/sentry-options.ts). */
const SEND_BUFFER = 64;

/** Errors then pages, ten at a time: each answered, each error page's digest on an error line. */
async function servedThroughTheFault(app: AppServer) {
  const errors = await load(app.url + ERROR_PAGE, { total: ERRORS, keepBodies: true });
  const pages = await load(app.url + PAGE, { total: PAGES });
  expect(Object.fromEntries(errors.statuses)).toEqual({ 500: ERRORS });
  expect(Object.fromEntries(pages.statuses)).toEqual({ 200: PAGES });
  const digests = errors.bodies.map(digestInHtml);
  const logged = new Set(
    app
      .logLines()
      .filter((line) => line.level === "error")
      .map((line) => line.digest),
  );
  expect(digests.filter((digest) => !digest || !logged.has(digest))).toEqual([]);
}

/** The app reporting to `dsn` at 100 % tracing, for `use`; stopped with the ingest, whatever happens. */
async function withAppReportingTo(
  dsn: string,
  close: () => Promise<void>,
  use: (app: AppServer) => Promise<void>,
) {
  const app = await startApp({ env: { SENTRY_DSN: dsn, SENTRY_TRACES_SAMPLE_RATE: "1" } });
  try {
    await use(app);
  } finally {
    await app.stop();
    await close();
  }
}

test("ingest black-holed: a request is answered before its send ends, and at most 64 sends wait", async () => {
  const ingest = await blackHoleIngest();
  await withAppReportingTo(ingest.dsn, ingest.close, async (app) => {
    const first = await fetch(app.url + ERROR_PAGE);
    await first.text();
    expect(first.status).toBe(500);
    // Its event's send is held by the ingest, which never answers: had the request waited for the
    // send, the send would have ended (abandoned) before the answer came.
    await expect.poll(() => ingest.openConnections()).toBeGreaterThan(0);
    expect(ingest.acceptedConnections()).toBe(ingest.openConnections());
    await servedThroughTheFault(app);
    expect(ingest.maxOpenConnections()).toBeLessThanOrEqual(SEND_BUFFER);
  });
});

test("ingest slow (3 s): every request is answered and every error logged, at most 64 sends waiting", async () => {
  const ingest = await slowIngest(3_000);
  await withAppReportingTo(ingest.dsn, ingest.close, async (app) => {
    await servedThroughTheFault(app);
    expect(ingest.acceptedConnections()).toBeGreaterThan(0);
    expect(ingest.maxOpenConnections()).toBeLessThanOrEqual(SEND_BUFFER);
  });
});

test("ingest refusing connections: every request is answered and every error logged", async () => {
  const ingest = await refusingIngest();
  await withAppReportingTo(ingest.dsn, ingest.close, servedThroughTheFault);
});

test("ingest answering 429: the sends stop for the backoff, and every request is answered", async () => {
  const ingest = await startRecorder();
  ingest.respondNext(1_000_000, 429);
  await withAppReportingTo(ingest.dsn(), ingest.close, async (app) => {
    await servedThroughTheFault(app);
    // A 429 without a retry header holds every send for 60 s: only those already under way arrive.
    expect(ingest.requestCount()).toBeGreaterThan(0);
    expect(ingest.requestCount()).toBeLessThan(ERRORS);
  });
});

test("ingest answering 500: every request is answered and every error logged", async () => {
  const ingest = await startRecorder();
  ingest.respondNext(1_000_000, 500);
  await withAppReportingTo(ingest.dsn(), ingest.close, async (app) => {
    await servedThroughTheFault(app);
    expect(ingest.requestCount()).toBeGreaterThan(0);
  });
});
